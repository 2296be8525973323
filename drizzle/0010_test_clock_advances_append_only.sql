-- Hand-written tail (no schema change): the log of the test clock's advances is append-only,
-- whoever writes, like the clock it logs (test_clock_only_forward): an edited or deleted row
-- would move a past moment's business time (test_clock_business_at), and with it a completion's
-- returns watch and a contestation's 80 days. The trigger on test_clock only ever inserts.
CREATE TRIGGER test_clock_advances_no_update_or_delete BEFORE UPDATE OR DELETE ON test_clock_advances
  FOR EACH ROW EXECUTE FUNCTION append_only_refuse_change();--> statement-breakpoint
CREATE TRIGGER test_clock_advances_no_truncate BEFORE TRUNCATE ON test_clock_advances
  FOR EACH STATEMENT EXECUTE FUNCTION append_only_refuse_change();
