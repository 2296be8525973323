-- Operator writes, each with its audit row in the same transaction (src/audit/operator-writes.ts).
-- Results are values, like the ledger's: the first effect, then repeats, then refusals.
CREATE OR REPLACE FUNCTION public.ops_create_account(p_account_id text, p_actor text)
 RETURNS text
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
DECLARE v_result text := ledger_create_account(p_account_id);
BEGIN
  IF v_result = 'created' THEN
    INSERT INTO operator_actions (actor, action, account_id) VALUES (p_actor, 'account_created', p_account_id);
  END IF;
  RETURN v_result;
END $function$;
