-- A transfer that will not pay gives its amount back to the night it consumed (night_evening),
-- once: the column is cleared as it is given back (nothing for a transfer without one). Called
-- when a hold is released (transfer_apply), and for a schedule charged at night that ends without
-- paying: canceled (transfer_cancel), refused or short of funds on its day (transfer_refuse,
-- transfer_reserve).
CREATE OR REPLACE FUNCTION public.night_usage_give_back(p_transfer_id uuid)
 RETURNS void
 LANGUAGE sql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
  WITH charged AS (
    SELECT id, account_id, amount_cents, night_evening FROM transfers WHERE id = p_transfer_id AND night_evening IS NOT NULL
  ), cleared AS (
    UPDATE transfers t SET night_evening = NULL FROM charged c WHERE t.id = c.id
  )
  UPDATE limit_usage u SET used_cents = u.used_cents - c.amount_cents
    FROM charged c
   WHERE u.account_id = c.account_id AND u.period = 'night' AND u.starts_on = c.night_evening
$function$;
