-- The client-facing resource (CONTRACT §2): one renderer, used for reads and for the snapshot
-- that idempotent replays return. History reasons are customer-safe codes (history_client_code).
CREATE OR REPLACE FUNCTION public.transfer_json(p_id uuid)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
  SELECT jsonb_build_object(
    'id', t.id, 'state', t.state, 'amount_cents', t.amount_cents,
    'pix_key', t.pix_key, 'pix_key_type', t.pix_key_type, 'description', t.description,
    'failure_reason', t.failure_reason, 'failure_code', t.failure_code,
    'end_to_end_id', t.end_to_end_id,
    'br_code', t.br_code, 'merchant_name', t.merchant_name, 'merchant_city', t.merchant_city,
    'created_at', rfc3339(t.created_at), 'updated_at', rfc3339(t.updated_at),
    'scheduled_for', to_char(t.scheduled_for, 'YYYY-MM-DD'), 'recurring_transfer_id', t.recurring_transfer_id,
    'returned_cents', t.returned_cents,
    'returns', coalesce((
      SELECT jsonb_agg(jsonb_build_object('id', r.id, 'amount_cents', r.amount_cents, 'reason', r.reason,
                                          'at', rfc3339(r.returned_at)) ORDER BY r.returned_at, r.id)
      FROM transfer_returns r WHERE r.transfer_id = t.id), '[]'::jsonb),
    'history', coalesce((
      SELECT jsonb_agg(jsonb_build_object('state', h.to_state, 'at', rfc3339(h.at),
                                          'reason', history_client_code(h.from_state, h.to_state, t.failure_reason))
                       ORDER BY h.id)
      FROM transfer_history h WHERE h.transfer_id = t.id), '[]'::jsonb))
  FROM transfers t WHERE t.id = p_id
$function$;
