-- At COMMIT (constraint trigger transfers_state_recorded): a transfer's state is the last state
-- its history records. With the history trigger writing each hop's event, this makes "no state
-- change without its event" a property of the database, whoever writes the row.
CREATE OR REPLACE FUNCTION public.transfer_check_recorded()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
AS $function$
DECLARE
  v_state text;
  v_recorded text;
BEGIN
  SELECT state INTO v_state FROM transfers WHERE id = NEW.id;
  SELECT to_state INTO v_recorded FROM transfer_history WHERE transfer_id = NEW.id ORDER BY id DESC LIMIT 1;
  IF v_recorded IS DISTINCT FROM v_state THEN
    RAISE EXCEPTION 'transfer % is % but its history (and events) say %', NEW.id, v_state, v_recorded
      USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN NULL;
END $function$;
