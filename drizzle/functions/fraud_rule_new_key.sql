-- A payment above the threshold to a key this account has not yet really paid waits for a
-- person (with the hold taken) before anything reaches the provider. A key is known once the
-- account's completed payments to it, net of what came back, add up to more than that same
-- threshold: one small payment (a scammer's R$1 "test") or a payment wholly returned does not
-- vouch for a large one.
CREATE OR REPLACE FUNCTION public.fraud_rule_new_key(p_transfer_id uuid, p_account_id text, p_amount_cents bigint, p_pix_key text, p_pix_key_type text, p_settings jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
DECLARE
  v_threshold bigint := (p_settings->>'new_key_review_above_cents')::bigint;
  v_paid_cents numeric;
BEGIN
  IF p_amount_cents <= v_threshold THEN RETURN NULL; END IF;
  SELECT coalesce(sum(amount_cents - returned_cents), 0) INTO v_paid_cents
    FROM transfers
   WHERE account_id = p_account_id AND pix_key = p_pix_key AND pix_key_type = p_pix_key_type
     AND state = 'completed' AND id <> p_transfer_id;
  IF v_paid_cents > v_threshold THEN RETURN NULL; END IF;
  RETURN jsonb_build_object('action', 'review', 'rule', 'new_key_review', 'threshold_cents', v_threshold, 'paid_cents', v_paid_cents);
END $function$;
