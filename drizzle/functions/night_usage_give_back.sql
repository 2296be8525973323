-- A transfer that will not pay gives its amount back to the night it consumed, once: the charge
-- row is deleted as it is given back (nothing for a transfer without one). Called when a hold is
-- released (transfer_apply), and for a schedule charged at night that ends without paying:
-- canceled (transfer_cancel), refused or short of funds on its day (transfer_refuse, transfer_reserve).
CREATE OR REPLACE FUNCTION public.night_usage_give_back(p_transfer_id uuid)
 RETURNS void
 LANGUAGE sql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
  WITH charge AS (DELETE FROM night_usage_charges WHERE transfer_id = p_transfer_id RETURNING transfer_id, evening)
  UPDATE limit_usage u SET used_cents = u.used_cents - t.amount_cents
    FROM charge c JOIN transfers t ON t.id = c.transfer_id
   WHERE u.account_id = t.account_id AND u.period = 'night' AND u.starts_on = c.evening
$function$;
