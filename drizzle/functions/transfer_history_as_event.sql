-- The outbox by construction: every transfer_history row is its hop's transfer.updated event,
-- completed by this trigger (transfer_history_event, BEFORE INSERT) in the statement that writes
-- it, so no writer can record a hop without its event and no fault can fall between them. The
-- resource is built once, as of this hop: transfer_json of the transfer as it is now, whose
-- history holds the hops before this one, with this hop appended and its state and time. A step
-- that records several hops at once (submitted -> compensating -> compensated) has already
-- written the transfer's final row, so an earlier hop shows its own state, time and history up
-- to itself, and the final row's other fields. A new event is due at once, whoever writes it.
CREATE OR REPLACE FUNCTION public.transfer_history_as_event()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
AS $function$
DECLARE
  v_now jsonb := transfer_json(NEW.transfer_id);
BEGIN
  NEW.sequence := transfer_event_next_sequence(NEW.transfer_id);
  -- No such transfer: an empty resource, so the row's foreign key is what refuses it.
  NEW.data := coalesce(v_now || jsonb_build_object(
      'state', NEW.to_state,
      'updated_at', rfc3339(NEW.at),
      'history', (v_now->'history') || jsonb_build_array(jsonb_build_object(
        'state', NEW.to_state, 'at', rfc3339(NEW.at),
        'reason', history_client_code(NEW.from_state, NEW.to_state, v_now->>'failure_reason')))), '{}'::jsonb);
  NEW.attempts := 0;
  NEW.next_attempt_at := NEW.at;
  NEW.delivered_at := NULL;
  NEW.parked_at := NULL;
  RETURN NEW;
END $function$;
