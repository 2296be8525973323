-- Whether a transfer's device is not registered for its account at p_now, the decision's
-- business instant (transfer_reserve's, as for the other Pix rules), for the new-device cap
-- (device_rule_verdict). NULL when no device rule applies: DEVICE_RULES off (p_rules.device_rules),
-- or a transfer requested without a device (while the rules were off).
CREATE OR REPLACE FUNCTION public.device_unregistered(p_account_id text, p_device_id text, p_rules jsonb, p_now timestamp with time zone)
 RETURNS boolean
 LANGUAGE sql
 STABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
  SELECT CASE
    WHEN p_device_id IS NULL OR NOT coalesce((p_rules->>'device_rules')::boolean, false) THEN NULL
    ELSE NOT EXISTS (SELECT 1 FROM devices
                      WHERE account_id = p_account_id AND device_id = p_device_id AND effective_at <= p_now)
  END
$function$;
