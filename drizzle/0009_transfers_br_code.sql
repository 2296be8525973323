ALTER TABLE "transfers" ADD COLUMN "br_code" text;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "br_code_kind" text;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "merchant_name" text;--> statement-breakpoint
ALTER TABLE "transfers" ADD COLUMN "merchant_city" text;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_br_code_bounded" CHECK (char_length("transfers"."br_code") BETWEEN 1 AND 512);--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_br_code_kind_known" CHECK (("transfers"."br_code" IS NULL) = ("transfers"."br_code_kind" IS NULL) AND "transfers"."br_code_kind" IN ('static', 'dynamic'));--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_merchant_bounded" CHECK (char_length("transfers"."merchant_name") BETWEEN 1 AND 25 AND char_length("transfers"."merchant_city") BETWEEN 1 AND 15);--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_merchant_of_static_code" CHECK (("transfers"."merchant_name" IS NOT NULL) = ("transfers"."br_code_kind" IS NOT DISTINCT FROM 'static') AND ("transfers"."merchant_city" IS NOT NULL) = ("transfers"."br_code_kind" IS NOT DISTINCT FROM 'static'));