-- A held transfer inside a night window consumes that night's total, keyed by the window's
-- evening; answers that evening (null outside every night window), which the caller records on
-- the transfer (night_evening) so a compensation gives it back there (night_usage_give_back).
-- Called under the account's lock with the same clock and rules as the verdict (p_rules.now_ms:
-- the instant pending increases are judged by): by transfer_reserve right after the hold (in the
-- UPDATE that records it), and by transfer_open and recurring_transfer_open for a schedule asked
-- for at night (night_schedule_verdict), which holds nothing.
CREATE OR REPLACE FUNCTION public.night_usage_charge(p_account_id text, p_amount_cents bigint, p_local_day date, p_local_minute integer, p_rules jsonb)
 RETURNS date
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
DECLARE
  v_limits jsonb := pix_limits_resolve(
    account_limits_in_force(p_account_id, rules_business_now(p_rules)), p_rules);
  v_evening date := pix_night_evening(p_local_day, p_local_minute, (v_limits->>'night_start_minute')::int);
BEGIN
  IF v_evening IS NULL THEN RETURN NULL; END IF;
  INSERT INTO limit_usage (account_id, period, starts_on, used_cents) VALUES (p_account_id, 'night', v_evening, p_amount_cents)
    ON CONFLICT (account_id, period, starts_on) DO UPDATE SET used_cents = limit_usage.used_cents + EXCLUDED.used_cents;
  RETURN v_evening;
END $function$;
