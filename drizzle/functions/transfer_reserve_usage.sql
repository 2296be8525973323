-- What a held transfer consumes of its account's limits: the São Paulo day's total; the day's
-- new-device cap when its device was unregistered (p_unregistered); and, when p_night (sent at
-- once, not to an active trusted recipient: a scheduled run is judged by the daytime rules),
-- that night's. Answers the night's evening (null: none), which the caller records on the
-- transfer (night_evening) in the statement that records its hold. Under the account's lock,
-- after the hold: transfer_open and transfer_reserve.
CREATE OR REPLACE FUNCTION public.transfer_reserve_usage(p_account_id text, p_amount_cents bigint, p_local_day date, p_local_minute integer, p_rules jsonb, p_night boolean, p_unregistered boolean)
 RETURNS date
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
BEGIN
  INSERT INTO limit_usage (account_id, period, starts_on, used_cents) VALUES (p_account_id, 'day', p_local_day, p_amount_cents)
    ON CONFLICT (account_id, period, starts_on) DO UPDATE SET used_cents = limit_usage.used_cents + EXCLUDED.used_cents;
  IF p_unregistered THEN
    INSERT INTO limit_usage (account_id, period, starts_on, used_cents) VALUES (p_account_id, 'new_device', p_local_day, p_amount_cents)
      ON CONFLICT (account_id, period, starts_on) DO UPDATE SET used_cents = limit_usage.used_cents + EXCLUDED.used_cents;
  END IF;
  IF NOT p_night THEN RETURN NULL; END IF;
  RETURN night_usage_charge(p_account_id, p_amount_cents, p_local_day, p_local_minute, p_rules);
END $function$;
