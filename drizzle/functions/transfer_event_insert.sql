-- Appends a transfer's next event that is not a hop (a return's transfer.returned, a
-- contestation's contestation.updated) to the outbox: the next sequence of that transfer, shared
-- with its history rows, and p_data, or the client resource as transfer_json renders it now. A
-- hop is its own history row's event (transfer_history_as_event), never written here: a
-- p_history_id is refused. The caller holds the transfer's row lock (transfer_event_next_sequence).
CREATE OR REPLACE FUNCTION public.transfer_event_insert(p_transfer_id uuid, p_type text, p_history_id bigint, p_occurred_at timestamp with time zone, p_data jsonb)
 RETURNS text
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
DECLARE
  v_id text;
BEGIN
  IF p_history_id IS NOT NULL THEN
    RAISE EXCEPTION 'transfer_event_insert: history row % is its own event', p_history_id;
  END IF;
  INSERT INTO transfer_other_events (transfer_id, sequence, type, occurred_at, data, next_attempt_at)
    VALUES (p_transfer_id, transfer_event_next_sequence(p_transfer_id), p_type, p_occurred_at,
            coalesce(p_data, transfer_json(p_transfer_id)), p_occurred_at)
    RETURNING event_id INTO v_id;
  RETURN v_id;
END $function$;
