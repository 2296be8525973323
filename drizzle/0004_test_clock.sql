CREATE TABLE "test_clock" (
	"singleton" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"offset_ms" bigint NOT NULL,
	"advanced_at" timestamp with time zone NOT NULL,
	CONSTRAINT "test_clock_one_row" CHECK ("test_clock"."singleton"),
	CONSTRAINT "test_clock_offset_not_negative" CHECK ("test_clock"."offset_ms" >= 0)
);
--> statement-breakpoint
-- Hand-written tail: the offset never goes back, whoever writes, and the row is never removed
-- (drizzle/functions/test_clock_refuse_rewind.sql).
CREATE TRIGGER test_clock_only_forward BEFORE UPDATE OR DELETE ON test_clock
  FOR EACH ROW EXECUTE FUNCTION test_clock_refuse_rewind();--> statement-breakpoint
CREATE TRIGGER test_clock_no_truncate BEFORE TRUNCATE ON test_clock
  FOR EACH STATEMENT EXECUTE FUNCTION test_clock_refuse_rewind();
