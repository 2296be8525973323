-- Pix limits before the hold, called by transfer_open inside its transaction. Each rule answers
-- a verdict: NULL to allow, or {action: refuse|review, rule, ...evidence}. Rules read facts only;
-- they write nothing and call nothing outside the database. The limits are those in force at
-- p_defaults.now_ms (business time at the request or the run; an operator's increase waits 24 h).
-- p_defaults' `daytime_rules` applies no night rule: true for a scheduled transfer's run and for
-- a transfer to an active trusted recipient (transfer_reserve sets it).
CREATE OR REPLACE FUNCTION public.pix_limit_verdict(p_account_id text, p_amount_cents bigint, p_local_day date, p_local_minute integer, p_defaults jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
DECLARE
  v_limits jsonb := pix_limits_resolve(
    account_limits_in_force(p_account_id, rules_business_now(p_defaults)), p_defaults);
  v_per_transfer bigint := (v_limits->>'per_transfer_cents')::bigint;
  v_daily bigint := (v_limits->>'daily_cents')::bigint;
  -- Night runs from the account's start (20:00 by default) to 06:00 the next morning.
  v_evening date := pix_night_evening(p_local_day, p_local_minute, (v_limits->>'night_start_minute')::int);
  v_night jsonb;
  v_used bigint;
  v_at_night boolean := v_evening IS NOT NULL AND NOT coalesce((p_defaults->>'daytime_rules')::boolean, false);
BEGIN
  IF p_amount_cents > v_per_transfer THEN
    RETURN jsonb_build_object('action', 'refuse', 'rule', 'per_transfer', 'limit_cents', v_per_transfer);
  END IF;
  IF v_at_night THEN
    v_night := pix_night_verdict(p_account_id, p_amount_cents, v_evening, v_limits);
    IF v_night IS NOT NULL THEN RETURN v_night; END IF;
  END IF;
  SELECT used_cents INTO v_used FROM limit_usage WHERE account_id = p_account_id AND period = 'day' AND starts_on = p_local_day;
  IF coalesce(v_used, 0) + p_amount_cents > v_daily THEN
    RETURN jsonb_build_object('action', 'refuse', 'rule', 'daily', 'limit_cents', v_daily, 'used_cents', coalesce(v_used, 0));
  END IF;
  RETURN NULL;
END $function$;
