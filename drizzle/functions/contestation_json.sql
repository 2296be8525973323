-- A contestation as its client sees it (CONTRACT §2 "Contestations"): one renderer, for reads,
-- the first response a replay repeats, and the contestation.updated events. returned_cents is
-- derived from the transfer's returns: the `fraud` ones since it was made (their sum now less
-- their sum when it was made, taken under the transfer's lock), so it never drifts from them.
CREATE OR REPLACE FUNCTION public.contestation_json(p_id uuid)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
  SELECT jsonb_build_object(
    'id', c.id, 'transfer_id', c.transfer_id, 'state', c.state, 'reason', c.reason, 'details', c.details,
    'created_at', rfc3339(c.created_at), 'submitted_at', rfc3339(c.submitted_at),
    'decided_at', rfc3339(c.decided_at), 'deadline_at', rfc3339(c.deadline_at),
    'returned_cents', contestation_fraud_cents(c.transfer_id) - c.fraud_cents_before)
  FROM contestations c WHERE c.id = p_id
$function$;
