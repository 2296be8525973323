-- provider_calls, whose rows moved in 0014, becomes a view of every call: those on their hop's
-- history row and those kept apart. Its readers (the transfer's story, GET /ops/overview,
-- provider reconciliation) read it unchanged.
DROP TABLE "provider_calls" CASCADE;--> statement-breakpoint
-- Hand-written: the view.
CREATE VIEW "provider_calls" AS
  SELECT h."id", h."transfer_id", h."call_kind" AS "kind", h."at", h."call_outcome" AS "outcome", h."call_http_status" AS "http_status",
         h."call_detail" AS "detail", h."call_duration_ms" AS "duration_ms"
    FROM "transfer_history" h WHERE h."call_kind" IS NOT NULL
  UNION ALL
  SELECT p."id", p."transfer_id", p."kind", p."at", p."outcome", p."http_status", p."detail", p."duration_ms"
    FROM "provider_calls_apart" p;