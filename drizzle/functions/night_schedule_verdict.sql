-- A schedule asked for inside the account's night window is judged by the night rules when it
-- is asked for (CONTRACT §2 `scheduled_for`), so a schedule is no way around the night: its run
-- meets only the daytime rules (transfer_reserve), and it may run within the same window. Called
-- by transfer_open under the account's lock, with the request's clock and rules: p_local_day,
-- p_local_minute and p_rules.now_ms are the request's business time (docs/clock.md).
-- Answers NULL outside the window or for an active trusted recipient (nothing to judge or
-- charge); a refusal verdict (nighttime / night_total, as pix_night_verdict); or
-- {action: charge, evening}: allowed, and the caller charges that night's total with the
-- amount (night_usage_charge, kept on the transfer as night_evening), given back if the schedule
-- never pays (canceled, refused or released on its day: transfer_cancel, transfer_refuse, transfer_reserve, transfer_apply).
CREATE OR REPLACE FUNCTION public.night_schedule_verdict(p_account_id text, p_amount_cents bigint, p_pix_key text, p_pix_key_type text, p_local_day date, p_local_minute integer, p_rules jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
DECLARE
  v_now timestamptz := ms_to_timestamptz((p_rules->>'now_ms')::bigint);
  v_limits jsonb := pix_limits_resolve(account_limits_in_force(p_account_id, v_now), p_rules);
  v_evening date := pix_night_evening(p_local_day, p_local_minute, (v_limits->>'night_start_minute')::int);
BEGIN
  IF v_now IS NULL THEN RAISE EXCEPTION 'night_schedule_verdict: no now_ms in %', p_rules; END IF;
  IF v_evening IS NULL OR trusted_recipient_active(p_account_id, p_pix_key, p_pix_key_type, v_now) THEN RETURN NULL; END IF;
  RETURN coalesce(pix_night_verdict(p_account_id, p_amount_cents, v_evening, v_limits),
                  jsonb_build_object('action', 'charge', 'evening', v_evening));
END $function$;
