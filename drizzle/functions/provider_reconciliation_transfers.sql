-- Our side of a provider reconciliation window: every transfer whose first send falls in
-- [p_from, p_to) (in_window), and the transfers named by the provider's statement that are not
-- (a send recorded just past the window's edge, a payment the provider files under another
-- day). Each with what the matcher judges by: state, amount, end-to-end id, when it was
-- released, the returns already recorded, and the order fields a status check needs.
-- Bounded by p_limit; the caller asks for one more to know when it was cut.
CREATE OR REPLACE FUNCTION public.provider_reconciliation_transfers(p_from timestamp with time zone, p_to timestamp with time zone, p_listed uuid[], p_limit integer)
 RETURNS TABLE(id uuid, state text, amount_cents bigint, end_to_end_id text, failure_reason text, released_at_ms bigint, return_ids text[], in_window boolean, pix_key text, pix_key_type text, description text)
 LANGUAGE sql
 STABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
  WITH first_sends AS (
    SELECT DISTINCT p.transfer_id FROM provider_calls p
     WHERE p.kind = 'send' AND p.at >= p_from AND p.at < p_to
       AND NOT EXISTS (SELECT 1 FROM provider_calls q WHERE q.transfer_id = p.transfer_id AND q.kind = 'send' AND q.at < p_from)
     LIMIT p_limit
  ), wanted AS (
    SELECT transfer_id AS id, true AS in_window FROM first_sends
    UNION ALL
    SELECT t.id, false FROM transfers t
     WHERE t.id = ANY(p_listed) AND NOT EXISTS (SELECT 1 FROM first_sends f WHERE f.transfer_id = t.id)
  )
  SELECT t.id, t.state, t.amount_cents, t.end_to_end_id, t.failure_reason,
         (SELECT epoch_ms(h.at) FROM transfer_history h
           WHERE h.transfer_id = t.id AND h.to_state = 'compensated' ORDER BY h.id LIMIT 1),
         coalesce((SELECT array_agg(r.id ORDER BY r.id) FROM transfer_returns r WHERE r.transfer_id = t.id), '{}'),
         w.in_window, t.pix_key, t.pix_key_type, t.description
    FROM wanted w JOIN transfers t ON t.id = w.id
$function$;
