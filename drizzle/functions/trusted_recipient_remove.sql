-- DELETE /v1/trusted-recipients/:pix_key: the key is no longer trusted, at once (a removal only
-- tightens the rules, so it never waits). Answers removed, not_found or account_not_found.
CREATE OR REPLACE FUNCTION public.trusted_recipient_remove(p_account_id text, p_pix_key text, p_pix_key_type text)
 RETURNS text
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
BEGIN
  PERFORM 1 FROM accounts WHERE id = p_account_id AND kind = 'customer';
  IF NOT FOUND THEN RETURN 'account_not_found'; END IF;
  DELETE FROM trusted_recipients WHERE account_id = p_account_id AND pix_key_type = p_pix_key_type AND pix_key = p_pix_key;
  RETURN CASE WHEN FOUND THEN 'removed' ELSE 'not_found' END;
END $function$;
