-- The Central Bank's new-device cap (CONTRACT §2 "Devices"), a Pix rule like pix_limit_verdict:
-- a transfer from an unregistered device (p_unregistered, from device_unregistered) may move at
-- most p_rules.new_device_transfer_cents, and with the account's other such transfers of the São
-- Paulo day at most p_rules.new_device_daily_cents (limit_usage `new_device`, which
-- transfer_reserve consumes with the hold under the account's lock, so the sum is exact under
-- concurrency). NULL allows; else {action: refuse, rule: new_device | new_device_daily, ...}.
CREATE OR REPLACE FUNCTION public.device_rule_verdict(p_account_id text, p_device_id text, p_amount_cents bigint, p_local_day date, p_unregistered boolean, p_rules jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
DECLARE
  v_per_transfer bigint := (p_rules->>'new_device_transfer_cents')::bigint;
  v_daily bigint := (p_rules->>'new_device_daily_cents')::bigint;
  v_used bigint;
BEGIN
  IF p_unregistered IS NOT TRUE THEN RETURN NULL; END IF;
  IF p_amount_cents > v_per_transfer THEN
    RETURN jsonb_build_object('action', 'refuse', 'rule', 'new_device', 'limit_cents', v_per_transfer, 'device_id', p_device_id);
  END IF;
  SELECT used_cents INTO v_used FROM limit_usage WHERE account_id = p_account_id AND period = 'new_device' AND starts_on = p_local_day;
  IF coalesce(v_used, 0) + p_amount_cents > v_daily THEN
    RETURN jsonb_build_object('action', 'refuse', 'rule', 'new_device_daily', 'limit_cents', v_daily,
                              'used_cents', coalesce(v_used, 0), 'device_id', p_device_id);
  END IF;
  RETURN NULL;
END $function$;
