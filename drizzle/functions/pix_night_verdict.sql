-- The night rules of one request inside a night window (named by its evening): the per-transfer
-- night cap, then the window's total with what that night has already consumed (limit_usage).
-- p_limits as pix_limits_resolve answers them. NULL to allow, else a refusal verdict. Shared by
-- a transfer sent at night (pix_limit_verdict) and a schedule asked for at night
-- (night_schedule_verdict), so both meet the same night.
CREATE OR REPLACE FUNCTION public.pix_night_verdict(p_account_id text, p_amount_cents bigint, p_evening date, p_limits jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
DECLARE
  v_night_cap bigint := (p_limits->>'night_per_transfer_cents')::bigint;
  v_night_total bigint := (p_limits->>'night_total_cents')::bigint;
  v_used bigint;
BEGIN
  IF p_amount_cents > v_night_cap THEN
    RETURN jsonb_build_object('action', 'refuse', 'rule', 'nighttime', 'limit_cents', v_night_cap);
  END IF;
  -- The Central Bank's nighttime limit caps the whole window, not only each transfer.
  SELECT used_cents INTO v_used FROM limit_usage WHERE account_id = p_account_id AND period = 'night' AND starts_on = p_evening;
  IF coalesce(v_used, 0) + p_amount_cents > v_night_total THEN
    RETURN jsonb_build_object('action', 'refuse', 'rule', 'night_total', 'limit_cents', v_night_total,
                              'used_cents', coalesce(v_used, 0), 'evening', p_evening);
  END IF;
  RETURN NULL;
END $function$;
