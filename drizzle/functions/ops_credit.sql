-- A credit applied at once (at or below the approval threshold). A key already used by a
-- credit request of the same account is a different credit.
CREATE OR REPLACE FUNCTION public.ops_credit(p_account_id text, p_idempotency_key text, p_amount_cents bigint, p_actor text)
 RETURNS text
 LANGUAGE plpgsql
AS $function$
DECLARE v_result text;
BEGIN
  PERFORM 1 FROM credit_requests WHERE account_id = p_account_id AND idempotency_key = p_idempotency_key;
  IF FOUND THEN RETURN 'exists_with_different_fields'; END IF;
  v_result := ledger_credit('credit:' || p_account_id || ':' || p_idempotency_key, p_account_id, p_amount_cents);
  IF v_result = 'credited' THEN
    INSERT INTO operator_actions (actor, action, account_id, details)
      VALUES (p_actor, 'credit', p_account_id,
              jsonb_build_object('amount_cents', p_amount_cents, 'idempotency_key', p_idempotency_key));
  END IF;
  RETURN v_result;
END $function$;
