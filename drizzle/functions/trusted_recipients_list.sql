-- GET /v1/trusted-recipients: the account's trusted recipients, oldest first (at most 50, so
-- one page), each pending or active at p_now (business time). NULL when no such account.
CREATE OR REPLACE FUNCTION public.trusted_recipients_list(p_account_id text, p_now timestamp with time zone)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
  SELECT coalesce(
    (SELECT jsonb_agg(trusted_recipient_json(r, p_now) ORDER BY r.created_at, r.pix_key_type, r.pix_key)
       FROM trusted_recipients r WHERE r.account_id = a.id),
    '[]'::jsonb)
  FROM accounts a WHERE a.id = p_account_id AND a.kind = 'customer'
$function$;
