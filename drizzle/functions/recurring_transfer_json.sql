-- The client-facing recurring transfer (CONTRACT §2, "Recurring transfers"): one renderer, used
-- for reads and for the first response that replays return. `occurrences` are those opened so
-- far, in order, each with its evening retry if it had one; `next_date` is the date of the
-- occurrence waiting to run (null when none waits: finished or canceled).
CREATE OR REPLACE FUNCTION public.recurring_transfer_json(p_id uuid)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
  SELECT jsonb_build_object(
    'id', r.id, 'state', r.state, 'amount_cents', r.amount_cents,
    'pix_key', r.pix_key, 'pix_key_type', r.pix_key_type, 'description', r.description,
    'frequency', r.frequency, 'first_date', to_char(r.first_date, 'YYYY-MM-DD'), 'count', r.occurrence_count,
    'next_date', (SELECT to_char(min(t.scheduled_for), 'YYYY-MM-DD') FROM transfers t
                   WHERE t.recurring_transfer_id = r.id AND t.retry_of IS NULL AND t.state = 'scheduled'),
    'occurrences', coalesce((
      SELECT jsonb_agg(jsonb_build_object('date', to_char(o.scheduled_for, 'YYYY-MM-DD'), 'transfer_id', o.id,
                                          'retry_transfer_id', (SELECT x.id FROM transfers x WHERE x.retry_of = o.id))
                       ORDER BY o.occurrence)
        FROM transfers o WHERE o.recurring_transfer_id = r.id AND o.retry_of IS NULL), '[]'::jsonb),
    'created_at', rfc3339(r.created_at))
  FROM recurring_transfers r WHERE r.id = p_id
$function$;
