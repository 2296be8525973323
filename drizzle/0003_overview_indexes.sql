DROP INDEX "provider_calls_sends_by_time";--> statement-breakpoint
CREATE INDEX "provider_calls_by_kind_time" ON "provider_calls" USING btree ("kind","at");--> statement-breakpoint
CREATE INDEX "transfer_events_parked" ON "transfer_events" USING btree ("parked_at") WHERE "transfer_events"."delivered_at" IS NULL AND "transfer_events"."parked_at" IS NOT NULL;