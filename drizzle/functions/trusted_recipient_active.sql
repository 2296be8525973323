-- Whether an account trusts a key at p_now (business time at the decision): a trusted recipient
-- whose waiting period is over. A transfer to one is exempt from the night rules and the
-- new-key review (CONTRACT §2 "Trusted recipients"); every other rule still applies.
CREATE OR REPLACE FUNCTION public.trusted_recipient_active(p_account_id text, p_pix_key text, p_pix_key_type text, p_now timestamp with time zone)
 RETURNS boolean
 LANGUAGE sql
 STABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
  SELECT EXISTS (
    SELECT 1 FROM trusted_recipients
     WHERE account_id = p_account_id AND pix_key_type = p_pix_key_type AND pix_key = p_pix_key AND effective_at <= p_now)
$function$;
