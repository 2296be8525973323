-- The outbox by construction: every transfer_history row gets its transfer.updated event in the
-- same statement that inserts it (trigger transfer_history_event), so no writer can record a
-- change without its event, and no fault can fall between them. The resource is transfer_json's,
-- as of this hop: a step that records several hops at once (submitted -> compensating ->
-- compensated) has already written the final row, so an earlier hop shows its own state, time
-- and the history up to itself.
CREATE OR REPLACE FUNCTION public.transfer_event_from_history()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
AS $function$
DECLARE
  v_now jsonb := transfer_json(NEW.transfer_id);
  v_hops integer;
BEGIN
  SELECT count(*) INTO v_hops FROM transfer_history WHERE transfer_id = NEW.transfer_id AND id <= NEW.id;
  PERFORM transfer_event_insert(NEW.transfer_id, 'transfer.updated', NEW.id, NEW.at,
    v_now || jsonb_build_object(
      'state', NEW.to_state,
      'updated_at', rfc3339(NEW.at),
      'history', coalesce((SELECT jsonb_agg(hop ORDER BY n) FROM jsonb_array_elements(v_now->'history') WITH ORDINALITY AS h(hop, n)
                           WHERE n <= v_hops), '[]'::jsonb)));
  RETURN NULL;
END $function$;
