-- The outbox by construction: every transfer_history row is its hop's transfer.updated event,
-- completed by this trigger (transfer_history_event, BEFORE INSERT) in the statement that writes
-- it, so no writer can record a hop without its event and no fault can fall between them. The
-- resource is built once, as of this hop: the transfer as it is now, whose history holds the
-- hops before this one, with this hop appended and its state and time. A step that records
-- several hops at once (submitted -> compensating -> compensated) has already written the
-- transfer's final row, so an earlier hop shows its own state, time and history up to itself,
-- and the final row's other fields. A new event is due at once, whoever writes it.
-- Built from the previous hop's resource when that is the transfer as it is now but for the
-- fields a hop changes (state, time, failure code, end-to-end id): every other field of
-- transfer_json is fixed at creation, or moves only with failure_reason (which also names the
-- history's reasons) and the returns (returned_cents), so when either differs the resource is
-- rendered whole (transfer_json). Either way it is transfer_json's, field for field (the keys
-- listed below are its keys: test/db/hop-resource.node.test.ts holds both to that); building on
-- the last hop reads one row instead of rendering every earlier hop again.
CREATE OR REPLACE FUNCTION public.transfer_history_as_event()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
AS $function$
DECLARE
  v_last_sequence integer;
  v_last jsonb;
  v_t record;
  v_now jsonb;
BEGIN
  -- The sequence: one past the last of the transfer's history rows and other events, as
  -- transfer_event_next_sequence counts it, reading the last hop's resource on the way.
  SELECT h.sequence, h.data INTO v_last_sequence, v_last FROM transfer_history h
    WHERE h.transfer_id = NEW.transfer_id ORDER BY h.sequence DESC LIMIT 1;
  NEW.sequence := 1 + greatest(coalesce(v_last_sequence, 0),
    coalesce((SELECT max(o.sequence) FROM transfer_other_events o WHERE o.transfer_id = NEW.transfer_id), 0));
  SELECT t.failure_reason, t.failure_code, t.end_to_end_id, t.returned_cents INTO v_t
    FROM transfers t WHERE t.id = NEW.transfer_id;
  -- A last hop written before transfer_json rendered one of today's fields (an older release)
  -- lacks it: rendered whole, as is any hop after a return or a new failure reason.
  IF v_last ?& ARRAY['id', 'state', 'amount_cents', 'pix_key', 'pix_key_type', 'description', 'failure_reason',
                     'failure_code', 'end_to_end_id', 'br_code', 'merchant_name', 'merchant_city', 'created_at',
                     'updated_at', 'scheduled_for', 'recurring_transfer_id', 'returned_cents', 'returns', 'history']
     AND v_last->>'failure_reason' IS NOT DISTINCT FROM v_t.failure_reason
     AND (v_last->>'returned_cents')::bigint = v_t.returned_cents THEN
    v_now := v_last || jsonb_build_object('failure_code', v_t.failure_code, 'end_to_end_id', v_t.end_to_end_id);
  ELSE
    v_now := transfer_json(NEW.transfer_id);
  END IF;
  -- No such transfer: an empty resource, so the row's foreign key is what refuses it.
  NEW.data := coalesce(v_now || jsonb_build_object(
      'state', NEW.to_state,
      'updated_at', rfc3339(NEW.at),
      'history', (v_now->'history') || jsonb_build_array(jsonb_build_object(
        'state', NEW.to_state, 'at', rfc3339(NEW.at),
        'reason', history_client_code(NEW.from_state, NEW.to_state, v_t.failure_reason)))), '{}'::jsonb);
  NEW.attempts := 0;
  NEW.next_attempt_at := NEW.at;
  NEW.delivered_at := NULL;
  NEW.parked_at := NULL;
  RETURN NEW;
END $function$;
