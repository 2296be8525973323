-- A trusted recipient as the client sees it (CONTRACT §2): `pending` until its effective_at,
-- `active` from then, judged by p_now (business time), so no job has to flip a state.
CREATE OR REPLACE FUNCTION public.trusted_recipient_json(p_recipient trusted_recipients, p_now timestamp with time zone)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
  SELECT jsonb_build_object(
    'pix_key', p_recipient.pix_key, 'pix_key_type', p_recipient.pix_key_type, 'name', p_recipient.name,
    'state', CASE WHEN p_recipient.effective_at <= p_now THEN 'active' ELSE 'pending' END,
    'effective_at', rfc3339(p_recipient.effective_at))
$function$;
