-- A hop is what happened (CONTRACT §5: append-only), with the provider call that justified it:
-- only its event's delivery columns (attempts, next_attempt_at, delivered_at, parked_at) ever
-- change, and it is never deleted (triggers transfer_history_no_update_or_delete and
-- transfer_history_no_truncate).
CREATE OR REPLACE FUNCTION public.transfer_history_refuse_change()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
AS $function$
BEGIN
  IF TG_OP = 'UPDATE'
     AND (NEW.id, NEW.transfer_id, NEW.from_state, NEW.to_state, NEW.at, NEW.reason, NEW.actor, NEW.evidence,
          NEW.event_id, NEW.sequence, NEW.data,
          NEW.call_kind, NEW.call_outcome, NEW.call_http_status, NEW.call_detail, NEW.call_duration_ms)
         IS NOT DISTINCT FROM
         (OLD.id, OLD.transfer_id, OLD.from_state, OLD.to_state, OLD.at, OLD.reason, OLD.actor, OLD.evidence,
          OLD.event_id, OLD.sequence, OLD.data,
          OLD.call_kind, OLD.call_outcome, OLD.call_http_status, OLD.call_detail, OLD.call_duration_ms) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION '% is append-only (% refused)', TG_TABLE_NAME, TG_OP USING ERRCODE = 'integrity_constraint_violation';
END $function$;
