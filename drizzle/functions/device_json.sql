-- A device as its client sees it (CONTRACT §2 "Devices"): registered once its effective_at has
-- come at p_now (business time), pending before. last_used_at is its newest transfer, derived
-- through the transfers_by_device_newest index so no transfer writes anything for it.
CREATE OR REPLACE FUNCTION public.device_json(p_device devices, p_now timestamp with time zone)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
  SELECT jsonb_build_object(
    'device_id', p_device.device_id,
    'name', p_device.name,
    'state', CASE WHEN p_device.effective_at <= p_now THEN 'registered' ELSE 'pending' END,
    'effective_at', rfc3339(p_device.effective_at),
    'last_used_at', (SELECT rfc3339(max(t.created_at)) FROM transfers t
                      WHERE t.account_id = p_device.account_id AND t.device_id = p_device.device_id))
$function$;
