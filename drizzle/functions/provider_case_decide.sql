-- An operator's decision on a paid-after-release case: recorded once, with who decided, when
-- and why, and audited as transfer_resolved (CONTRACT §5) in the same transaction. The money is
-- never moved here: the decision says what a person did or will do about it.
-- Results: decided | already_decided | not_found.
CREATE OR REPLACE FUNCTION public.provider_case_decide(p_transfer_id uuid, p_actor text, p_decision text, p_note text)
 RETURNS text
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
DECLARE
  v_case provider_reconciliation_cases%ROWTYPE;
  v_account_id text;
BEGIN
  SELECT * INTO v_case FROM provider_reconciliation_cases WHERE transfer_id = p_transfer_id FOR UPDATE;
  IF v_case.transfer_id IS NULL THEN RETURN 'not_found'; END IF;
  IF v_case.decided_at IS NOT NULL THEN RETURN 'already_decided'; END IF;
  UPDATE provider_reconciliation_cases
     SET decided_at = now(), decided_by = p_actor, decision = p_decision, note = p_note
   WHERE transfer_id = p_transfer_id;
  SELECT account_id INTO v_account_id FROM transfers WHERE id = p_transfer_id;
  INSERT INTO operator_actions (actor, action, account_id, transfer_id, details)
    VALUES (p_actor, 'transfer_resolved', v_account_id, p_transfer_id, jsonb_build_object(
      'case', 'paid_after_release', 'decision', p_decision, 'note', p_note, 'end_to_end_id', v_case.end_to_end_id));
  RETURN 'decided';
END $function$;
