-- A transfer's next event sequence: one past the last of its history rows (each a hop's event)
-- and its other events (returns, contestations), so both take their places in one 1, 2, 3...
-- Called as each event is written, under the transfer's row lock (the caller's guarded UPDATE,
-- INSERT or FOR UPDATE); the unique (transfer_id, sequence) of each table refuses a racing bare
-- writer. Two index lookups of the last entry, no scan.
CREATE OR REPLACE FUNCTION public.transfer_event_next_sequence(p_transfer_id uuid)
 RETURNS integer
 LANGUAGE sql
 SET search_path TO 'public', 'pg_temp'
AS $function$
  SELECT 1 + greatest(
    coalesce((SELECT max(h.sequence) FROM transfer_history h WHERE h.transfer_id = p_transfer_id), 0),
    coalesce((SELECT max(o.sequence) FROM transfer_other_events o WHERE o.transfer_id = p_transfer_id), 0))
$function$;
