-- A credit above the threshold: recorded, not applied. Repeating the key finds the request.
CREATE OR REPLACE FUNCTION public.ops_request_credit(p_credit_id uuid, p_account_id text, p_idempotency_key text, p_amount_cents bigint, p_actor text)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_existing credit_requests%ROWTYPE;
  v_id uuid;
BEGIN
  PERFORM 1 FROM accounts WHERE id = p_account_id AND kind = 'customer';
  IF NOT FOUND THEN RETURN jsonb_build_object('outcome', 'account_not_found'); END IF;
  PERFORM 1 FROM ledger_transactions WHERE op_key = 'credit:' || p_account_id || ':' || p_idempotency_key;
  IF FOUND THEN RETURN jsonb_build_object('outcome', 'exists_with_different_fields'); END IF;
  INSERT INTO credit_requests (id, account_id, amount_cents, idempotency_key, requested_by)
    VALUES (p_credit_id, p_account_id, p_amount_cents, p_idempotency_key, p_actor)
    ON CONFLICT (account_id, idempotency_key) DO NOTHING RETURNING id INTO v_id;
  IF v_id IS NULL THEN
    SELECT * INTO v_existing FROM credit_requests WHERE account_id = p_account_id AND idempotency_key = p_idempotency_key;
    IF v_existing.amount_cents <> p_amount_cents THEN RETURN jsonb_build_object('outcome', 'exists_with_different_fields'); END IF;
    RETURN jsonb_build_object('outcome', 'already_requested', 'credit_id', v_existing.id);
  END IF;
  INSERT INTO operator_actions (actor, action, account_id, details)
    VALUES (p_actor, 'credit_requested', p_account_id,
            jsonb_build_object('credit_id', v_id, 'amount_cents', p_amount_cents, 'idempotency_key', p_idempotency_key));
  RETURN jsonb_build_object('outcome', 'requested', 'credit_id', v_id);
END $function$;
