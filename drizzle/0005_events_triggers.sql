-- The outbox's guarantees (CONTRACT §6), held by the database whoever writes: every history row
-- gets its event in the statement that inserts it; a transfer's state is always the last one its
-- history records (checked at COMMIT); events never change but for their delivery, never vanish.
-- Functions in drizzle/functions/.
CREATE TRIGGER transfer_history_event AFTER INSERT ON transfer_history
  FOR EACH ROW EXECUTE FUNCTION transfer_event_from_history();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER transfers_state_recorded_on_insert AFTER INSERT ON transfers
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION transfer_check_recorded();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER transfers_state_recorded AFTER UPDATE OF state ON transfers
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state)
  EXECUTE FUNCTION transfer_check_recorded();
--> statement-breakpoint
CREATE TRIGGER transfer_events_immutable BEFORE UPDATE OR DELETE ON transfer_events
  FOR EACH ROW EXECUTE FUNCTION transfer_events_refuse_change();
--> statement-breakpoint
CREATE TRIGGER transfer_events_no_truncate BEFORE TRUNCATE ON transfer_events
  FOR EACH STATEMENT EXECUTE FUNCTION transfer_events_refuse_change();
--> statement-breakpoint
-- History recorded before the outbox existed gets its events, in order, as not yet delivered:
-- a receiver configured later still learns every change.
DO $$
DECLARE h transfer_history%ROWTYPE;
BEGIN
  FOR h IN SELECT * FROM transfer_history ORDER BY id LOOP
    PERFORM transfer_event_insert(h.transfer_id, 'transfer.updated', h.id, h.at,
      transfer_json(h.transfer_id) || jsonb_build_object('state', h.to_state, 'updated_at', rfc3339(h.at),
        'history', (SELECT jsonb_agg(jsonb_build_object('state', x.to_state, 'at', rfc3339(x.at), 'reason', history_client_code(x.from_state, x.to_state, (SELECT t.failure_reason FROM transfers t WHERE t.id = h.transfer_id))) ORDER BY x.id)
                    FROM transfer_history x WHERE x.transfer_id = h.transfer_id AND x.id <= h.id)));
  END LOOP;
END $$;
