-- An operator's credit (POST /ops/accounts/:id/credits), decided under the account's row lock:
-- applied at once, or recorded for a second person's approval (four eyes, CONTRACT §5) when it
-- is above p_approval_above_cents, or when, with the same operator's other credits to the
-- account in the last 24 h (applied or waiting), it would be. Credits to one account queue on
-- its row (the lock ledger_credit takes anyway), so two halves sent at once cannot both pass as
-- small. The operator is p_operator_id (`access:<sub>` or `ops-token`), the audit shows p_actor.
-- A repeated key answers what its first request did, whatever the window says now; a key of
-- another amount, or of the other kind's record, is another credit.
CREATE OR REPLACE FUNCTION public.ops_credit(p_credit_id uuid, p_account_id text, p_idempotency_key text, p_amount_cents bigint, p_actor text, p_operator_id text, p_approval_above_cents bigint)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
DECLARE
  v_op_key text := 'credit:' || p_account_id || ':' || p_idempotency_key;
  v_request credit_requests%ROWTYPE;
  v_recent_cents numeric;
  v_details jsonb := jsonb_build_object('amount_cents', p_amount_cents, 'idempotency_key', p_idempotency_key);
BEGIN
  PERFORM 1 FROM accounts WHERE id = p_account_id AND kind = 'customer' FOR UPDATE;
  IF NOT FOUND THEN RETURN jsonb_build_object('outcome', 'account_not_found'); END IF;
  SELECT * INTO v_request FROM credit_requests WHERE account_id = p_account_id AND idempotency_key = p_idempotency_key;
  IF FOUND THEN
    RETURN CASE WHEN v_request.amount_cents = p_amount_cents
                THEN jsonb_build_object('outcome', 'already_requested', 'credit_id', v_request.id)
                ELSE jsonb_build_object('outcome', 'exists_with_different_fields') END;
  END IF;
  PERFORM 1 FROM ledger_transactions WHERE op_key = v_op_key;
  IF FOUND THEN
    -- already_credited, or exists_with_different_fields: nothing is written.
    RETURN jsonb_build_object('outcome', ledger_credit(v_op_key, p_account_id, p_amount_cents));
  END IF;

  SELECT coalesce(sum((a.details->>'amount_cents')::bigint), 0) INTO v_recent_cents
    FROM operator_actions a
   WHERE a.account_id = p_account_id AND a.operator_id = p_operator_id
     AND a.action IN ('credit', 'credit_requested') AND a.at > now() - interval '24 hours';
  IF p_amount_cents > p_approval_above_cents OR v_recent_cents + p_amount_cents > p_approval_above_cents THEN
    INSERT INTO credit_requests (id, account_id, amount_cents, idempotency_key, requested_by, requested_by_id)
      VALUES (p_credit_id, p_account_id, p_amount_cents, p_idempotency_key, p_actor, p_operator_id);
    INSERT INTO operator_actions (actor, operator_id, action, account_id, details)
      VALUES (p_actor, p_operator_id, 'credit_requested', p_account_id,
              v_details || jsonb_build_object('credit_id', p_credit_id, 'earlier_24h_cents', v_recent_cents));
    RETURN jsonb_build_object('outcome', 'requested', 'credit_id', p_credit_id);
  END IF;
  IF ledger_credit(v_op_key, p_account_id, p_amount_cents) <> 'credited' THEN
    RAISE EXCEPTION 'ledger invariant violated: new credit % of account % not applied', v_op_key, p_account_id;
  END IF;
  INSERT INTO operator_actions (actor, operator_id, action, account_id, details)
    VALUES (p_actor, p_operator_id, 'credit', p_account_id, v_details);
  RETURN jsonb_build_object('outcome', 'credited');
END $function$;
