-- Why a hold could not be resolved: it does not exist, or it already was (a repeated settle or
-- release answers this instead of moving money twice).
CREATE OR REPLACE FUNCTION public.hold_refusal(p_hold_id uuid)
 RETURNS text
 LANGUAGE sql
 STABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
  SELECT coalesce((SELECT 'already_' || status FROM holds WHERE id = p_hold_id), 'hold_not_found')
$function$;
