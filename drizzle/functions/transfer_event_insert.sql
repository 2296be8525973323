-- Appends a transfer's next event to the outbox: the next sequence of that transfer, and the
-- client resource as transfer_json renders it now (the one builder of that JSON). Called by the
-- history trigger for every hop, and by whatever applies a return (type transfer.returned, no
-- history row). The caller holds the transfer's row lock (the guarded UPDATE, the INSERT, or
-- FOR UPDATE), so sequences of one transfer are assigned one at a time; the unique
-- (transfer_id, sequence) refuses a gap-filling race anyway.
CREATE OR REPLACE FUNCTION public.transfer_event_insert(p_transfer_id uuid, p_type text, p_history_id bigint, p_occurred_at timestamp with time zone, p_data jsonb)
 RETURNS text
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
DECLARE
  v_id text := 'evt_' || replace(gen_random_uuid()::text, '-', '');
BEGIN
  INSERT INTO transfer_events (id, transfer_id, sequence, type, history_id, occurred_at, data, next_attempt_at)
    VALUES (v_id, p_transfer_id,
            coalesce((SELECT max(sequence) FROM transfer_events WHERE transfer_id = p_transfer_id), 0) + 1,
            p_type, p_history_id, p_occurred_at, coalesce(p_data, transfer_json(p_transfer_id)), p_occurred_at);
  RETURN v_id;
END $function$;
