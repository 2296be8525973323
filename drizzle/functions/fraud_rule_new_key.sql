-- A first payment to a key this account has never paid before, above the threshold, waits
-- for a person (with the hold taken) before anything reaches the provider.
CREATE OR REPLACE FUNCTION public.fraud_rule_new_key(p_transfer_id uuid, p_account_id text, p_amount_cents bigint, p_pix_key text, p_pix_key_type text, p_settings jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
AS $function$
DECLARE v_threshold bigint := (p_settings->>'new_key_review_above_cents')::bigint;
BEGIN
  IF p_amount_cents <= v_threshold THEN RETURN NULL; END IF;
  PERFORM 1 FROM transfers
   WHERE account_id = p_account_id AND pix_key = p_pix_key AND pix_key_type = p_pix_key_type
     AND state = 'completed' AND id <> p_transfer_id
   LIMIT 1;
  IF FOUND THEN RETURN NULL; END IF;
  RETURN jsonb_build_object('action', 'review', 'rule', 'new_key_review', 'threshold_cents', v_threshold);
END $function$;
