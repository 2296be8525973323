-- GET /v1/devices: the account's devices, oldest first, as device_json shows them at p_now;
-- NULL when there is no such customer account. At most devicesPerAccountMax rows (src/devices/bounds.ts).
CREATE OR REPLACE FUNCTION public.devices_json(p_account_id text, p_now timestamp with time zone)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
  SELECT jsonb_build_object('data', coalesce(
    (SELECT jsonb_agg(device_json(d, p_now) ORDER BY d.created_at, d.device_id) FROM devices d WHERE d.account_id = a.id),
    '[]'::jsonb))
  FROM accounts a WHERE a.id = p_account_id AND a.kind = 'customer'
$function$;
