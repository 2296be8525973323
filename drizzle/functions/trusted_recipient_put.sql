-- PUT /v1/trusted-recipients/:pix_key: trusts a key from p_delay_ms after p_now (business
-- time). A key already there answers as it is (a name given renames it; the wait does not
-- restart). Puts of one account queue on an advisory lock of their own, so the count and the
-- insert are decided together: at most p_max per account under any concurrency, and concurrent
-- puts of one key create one row. Transfers never wait behind it (the account row is not locked).
-- Answers created | exists (with the recipient), too_many or account_not_found.
CREATE OR REPLACE FUNCTION public.trusted_recipient_put(p_account_id text, p_pix_key text, p_pix_key_type text, p_name text, p_now timestamp with time zone, p_delay_ms bigint, p_max integer)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
DECLARE
  v_r trusted_recipients%ROWTYPE;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('trusted_recipient_put'), hashtext(p_account_id));
  PERFORM 1 FROM accounts WHERE id = p_account_id AND kind = 'customer';
  IF NOT FOUND THEN RETURN jsonb_build_object('outcome', 'account_not_found'); END IF;
  SELECT * INTO v_r FROM trusted_recipients
   WHERE account_id = p_account_id AND pix_key_type = p_pix_key_type AND pix_key = p_pix_key;
  IF FOUND THEN
    IF p_name IS NOT NULL AND p_name IS DISTINCT FROM v_r.name THEN
      UPDATE trusted_recipients SET name = p_name
       WHERE account_id = p_account_id AND pix_key_type = p_pix_key_type AND pix_key = p_pix_key
       RETURNING * INTO v_r;
    END IF;
    RETURN jsonb_build_object('outcome', 'exists', 'recipient', trusted_recipient_json(v_r, p_now));
  END IF;
  IF (SELECT count(*) FROM trusted_recipients WHERE account_id = p_account_id) >= p_max THEN
    RETURN jsonb_build_object('outcome', 'too_many');
  END IF;
  INSERT INTO trusted_recipients (account_id, pix_key_type, pix_key, name, effective_at)
    VALUES (p_account_id, p_pix_key_type, p_pix_key, p_name, p_now + p_delay_ms * interval '1 millisecond')
    RETURNING * INTO v_r;
  RETURN jsonb_build_object('outcome', 'created', 'recipient', trusted_recipient_json(v_r, p_now));
END $function$;
