-- Pix limits before the hold, called by transfer_open inside its transaction. Each rule answers
-- a verdict: NULL to allow, or {action: refuse|review, rule, ...evidence}. Rules read facts only;
-- they write nothing and call nothing outside the database. p_defaults' `daytime_rules` (true
-- for a scheduled transfer's run) applies no night rule, whatever the minute.
CREATE OR REPLACE FUNCTION public.pix_limit_verdict(p_account_id text, p_amount_cents bigint, p_local_day date, p_local_minute integer, p_defaults jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
AS $function$
DECLARE
  v_limits account_limits%ROWTYPE;
  v_per_transfer bigint;
  v_daily bigint;
  v_night_cap bigint;
  v_night_start_minute int;
  v_used bigint;
  -- A scheduled transfer's run is checked against the daytime rules (transfer_reserve sets it).
  v_at_night boolean;
BEGIN
  SELECT * INTO v_limits FROM account_limits WHERE account_id = p_account_id;
  v_per_transfer := coalesce(v_limits.per_transfer_cents, (p_defaults->>'per_transfer_cents')::bigint);
  v_daily := coalesce(v_limits.daily_cents, (p_defaults->>'daily_cents')::bigint);
  v_night_cap := coalesce(v_limits.night_per_transfer_cents, (p_defaults->>'night_per_transfer_cents')::bigint);
  v_night_start_minute := coalesce(extract(hour FROM v_limits.night_starts_at)::int * 60
                                   + extract(minute FROM v_limits.night_starts_at)::int, 20 * 60);
  v_at_night := (p_local_minute >= v_night_start_minute OR p_local_minute < 6 * 60)
                AND NOT coalesce((p_defaults->>'daytime_rules')::boolean, false);
  IF p_amount_cents > v_per_transfer THEN
    RETURN jsonb_build_object('action', 'refuse', 'rule', 'per_transfer', 'limit_cents', v_per_transfer);
  END IF;
  -- Night runs from the account's start (20:00 by default) to 06:00 the next morning.
  IF v_at_night AND p_amount_cents > v_night_cap THEN
    RETURN jsonb_build_object('action', 'refuse', 'rule', 'nighttime', 'limit_cents', v_night_cap);
  END IF;
  SELECT used_cents INTO v_used FROM daily_usage WHERE account_id = p_account_id AND day = p_local_day;
  IF coalesce(v_used, 0) + p_amount_cents > v_daily THEN
    RETURN jsonb_build_object('action', 'refuse', 'rule', 'daily', 'limit_cents', v_daily, 'used_cents', coalesce(v_used, 0));
  END IF;
  RETURN NULL;
END $function$;
