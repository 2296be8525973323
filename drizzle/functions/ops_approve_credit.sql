-- The second pair of eyes: another person applies the credit, once. People are compared by
-- who they are (p_operator_id: `access:<sub>`), never by the email they signed in with; the
-- machine (`ops-token`) never approves. The row lock makes two concurrent approvals queue; the
-- second finds it approved and applies nothing.
CREATE OR REPLACE FUNCTION public.ops_approve_credit(p_credit_id uuid, p_actor text, p_operator_id text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
DECLARE
  v_request credit_requests%ROWTYPE;
  v_result text;
BEGIN
  SELECT * INTO v_request FROM credit_requests WHERE id = p_credit_id FOR UPDATE;
  IF NOT FOUND THEN RETURN jsonb_build_object('outcome', 'not_found'); END IF;
  IF v_request.approved_by_id IS NOT NULL THEN
    RETURN jsonb_build_object('outcome', CASE WHEN v_request.approved_by_id = p_operator_id THEN 'already_approved' ELSE 'approved_by_another' END,
                              'account_id', v_request.account_id, 'approved_by', v_request.approved_by);
  END IF;
  IF p_operator_id = 'ops-token' THEN RETURN jsonb_build_object('outcome', 'machine_cannot_approve'); END IF;
  IF p_operator_id = v_request.requested_by_id THEN RETURN jsonb_build_object('outcome', 'same_actor'); END IF;
  v_result := ledger_credit('credit:' || v_request.account_id || ':' || v_request.idempotency_key,
                            v_request.account_id, v_request.amount_cents);
  IF v_result <> 'credited' THEN
    RAISE EXCEPTION 'ledger invariant violated: approved credit % answered %', p_credit_id, v_result;
  END IF;
  UPDATE credit_requests SET approved_by = p_actor, approved_by_id = p_operator_id, approved_at = now() WHERE id = p_credit_id;
  INSERT INTO operator_actions (actor, operator_id, action, account_id, details)
    VALUES (p_actor, p_operator_id, 'credit_approved', v_request.account_id,
            jsonb_build_object('credit_id', p_credit_id, 'amount_cents', v_request.amount_cents,
                               'idempotency_key', v_request.idempotency_key, 'requested_by', v_request.requested_by));
  RETURN jsonb_build_object('outcome', 'approved', 'account_id', v_request.account_id);
END $function$;
