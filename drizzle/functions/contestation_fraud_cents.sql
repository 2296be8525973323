-- The sum of a transfer's `fraud` returns (MED): what a contestation's returned_cents counts from.
CREATE OR REPLACE FUNCTION public.contestation_fraud_cents(p_transfer_id uuid)
 RETURNS bigint
 LANGUAGE sql
 STABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
  SELECT coalesce(sum(amount_cents), 0)::bigint FROM transfer_returns WHERE transfer_id = p_transfer_id AND reason = 'fraud'
$function$;
