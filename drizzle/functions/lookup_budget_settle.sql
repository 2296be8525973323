-- Settles a reserved lookup at its real cost: a hit gives back all but one token, a miss takes
-- what it still owes (the bucket may go below zero, repaid by the refill before the next lookup),
-- an unknown answer (p_cost 0) gives the whole reservation back.
CREATE OR REPLACE FUNCTION public.lookup_budget_settle(p_account_id text, p_reserved integer, p_cost integer, p_token_ms integer)
 RETURNS void
 LANGUAGE sql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
  UPDATE lookup_budgets SET empty_at = empty_at + ((p_cost - p_reserved)::bigint * p_token_ms) * interval '1 millisecond'
   WHERE account_id = p_account_id
$function$;
