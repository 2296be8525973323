-- One row per fact (issue 30): the night a held transfer consumed is a column of the transfer,
-- written by the UPDATE that records its hold (as limit_day is), not a row of its own.
-- Hand-edited: the column and its backfill come before the table they are read from is dropped.
ALTER TABLE "transfers" ADD COLUMN "night_evening" date;--> statement-breakpoint
UPDATE "transfers" t SET "night_evening" = c."evening" FROM "night_usage_charges" c WHERE c."transfer_id" = t."id";--> statement-breakpoint
DROP TABLE "night_usage_charges" CASCADE;
