-- Writes through the view transfer_events (trigger transfer_events_write, INSTEAD OF) keep the
-- outbox's rules for a bare writer: a transfer.updated event exists only as its history row, so
-- one cannot be added apart from its hop (it has none, or its hop already is its event); another
-- event goes to transfer_other_events, where its own checks apply; only delivery columns change;
-- nothing is deleted.
CREATE OR REPLACE FUNCTION public.transfer_events_view_write()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF (NEW.type = 'transfer.updated') <> (NEW.history_id IS NOT NULL) THEN
      RAISE EXCEPTION 'new row for transfer_events violates check constraint "transfer_events_updated_has_history"'
        USING ERRCODE = 'check_violation';
    END IF;
    IF NEW.history_id IS NOT NULL THEN
      RAISE EXCEPTION 'duplicate key value violates unique constraint "transfer_events_one_per_history_row": history row % is its own event', NEW.history_id
        USING ERRCODE = 'unique_violation';
    END IF;
    INSERT INTO transfer_other_events (event_id, transfer_id, sequence, type, occurred_at, data, attempts, next_attempt_at, delivered_at, parked_at)
      VALUES (coalesce(NEW.id, 'evt_' || replace(gen_random_uuid()::text, '-', '')), NEW.transfer_id,
              coalesce(NEW.sequence, transfer_event_next_sequence(NEW.transfer_id)), NEW.type, NEW.occurred_at, NEW.data,
              coalesce(NEW.attempts, 0), coalesce(NEW.next_attempt_at, NEW.occurred_at), NEW.delivered_at, NEW.parked_at);
    RETURN NEW;
  END IF;
  IF TG_OP = 'UPDATE' AND (NEW.id, NEW.transfer_id, NEW.sequence, NEW.type, NEW.history_id, NEW.occurred_at, NEW.data)
      IS NOT DISTINCT FROM (OLD.id, OLD.transfer_id, OLD.sequence, OLD.type, OLD.history_id, OLD.occurred_at, OLD.data) THEN
    IF OLD.history_id IS NOT NULL THEN
      UPDATE transfer_history SET attempts = NEW.attempts, next_attempt_at = NEW.next_attempt_at, delivered_at = NEW.delivered_at,
                                  parked_at = NEW.parked_at
        WHERE id = OLD.history_id;
    ELSE
      UPDATE transfer_other_events SET attempts = NEW.attempts, next_attempt_at = NEW.next_attempt_at, delivered_at = NEW.delivered_at,
                                       parked_at = NEW.parked_at
        WHERE event_id = OLD.id;
    END IF;
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'transfer_events are append-only: % refused', TG_OP USING ERRCODE = 'integrity_constraint_violation';
END $function$;
