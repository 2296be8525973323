-- Anti-fraud before anything reaches the provider: a held transfer above the threshold to a key
-- the account has not really paid yet (fraud_rule_new_key) moves to needs_review, keeping its
-- hold. Answers whether it did. Right after the funds_reserved hop, in the same transaction:
-- transfer_open and transfer_reserve.
CREATE OR REPLACE FUNCTION public.transfer_review_new_key(p_id uuid, p_rules jsonb)
 RETURNS boolean
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
DECLARE
  v_t transfers%ROWTYPE;
  v_verdict jsonb;
BEGIN
  SELECT * INTO v_t FROM transfers WHERE id = p_id;
  v_verdict := fraud_rule_new_key(p_id, v_t.account_id, v_t.amount_cents, v_t.pix_key, v_t.pix_key_type, p_rules);
  IF v_verdict IS NULL THEN RETURN false; END IF;
  UPDATE transfers SET state = 'needs_review', next_check_at = NULL, updated_at = now() WHERE id = p_id;
  INSERT INTO transfer_history (transfer_id, from_state, to_state, reason, actor, evidence)
    VALUES (p_id, 'funds_reserved', 'needs_review', 'anti-fraud review before sending: ' || (v_verdict->>'rule'), 'saga', v_verdict);
  RETURN true;
END $function$;
