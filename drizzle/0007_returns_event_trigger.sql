-- The outbox holds for returns as it does for history (0005_events_triggers.sql): every
-- transfer_returns row gets its transfer.returned event in the statement that inserts it, and
-- at COMMIT a transfer's transfer.returned events are exactly as many as its returns, so no
-- return is without its event and no such event without its return, whoever writes the rows.
-- Functions in drizzle/functions/.
CREATE TRIGGER transfer_returns_event AFTER INSERT ON transfer_returns
  FOR EACH ROW EXECUTE FUNCTION transfer_event_from_return();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER transfer_returns_announced AFTER INSERT ON transfer_returns
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION transfer_check_returns_announced();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER transfer_events_returned_counted AFTER INSERT ON transfer_events
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.type = 'transfer.returned')
  EXECUTE FUNCTION transfer_check_returns_announced();
