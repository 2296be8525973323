-- An event that is not a hop (transfer_other_events) is what happened: only its delivery
-- columns (attempts, next_attempt_at, delivered_at, parked_at) ever change, and it is never
-- deleted (triggers transfer_other_events_immutable and transfer_other_events_no_truncate).
CREATE OR REPLACE FUNCTION public.transfer_events_refuse_change()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
AS $function$
BEGIN
  IF TG_OP = 'UPDATE' AND (NEW.event_id, NEW.transfer_id, NEW.sequence, NEW.type, NEW.occurred_at, NEW.data)
      IS NOT DISTINCT FROM (OLD.event_id, OLD.transfer_id, OLD.sequence, OLD.type, OLD.occurred_at, OLD.data) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'transfer_events are append-only: % refused', TG_OP USING ERRCODE = 'integrity_constraint_violation';
END $function$;
