-- At COMMIT (constraint triggers transfer_returns_announced and
-- transfer_other_events_returned_counted): a transfer has exactly as many transfer.returned
-- events as returns. The returns' own trigger writes one event per
-- return; this refuses the other direction, an event announcing money that never came back.
CREATE OR REPLACE FUNCTION public.transfer_check_returns_announced()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
AS $function$
DECLARE
  v_returns bigint;
  v_events bigint;
BEGIN
  SELECT count(*) INTO v_returns FROM transfer_returns WHERE transfer_id = NEW.transfer_id;
  SELECT count(*) INTO v_events FROM transfer_other_events WHERE transfer_id = NEW.transfer_id AND type = 'transfer.returned';
  IF v_returns <> v_events THEN
    RAISE EXCEPTION 'transfer % has % returns but % transfer.returned events', NEW.transfer_id, v_returns, v_events
      USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN NULL;
END $function$;
