-- The business instant a Pix rule is decided at: the rules' `now_ms` (docs/clock.md), set by
-- whoever started the request or the run. Never the wall clock in its place: an operator's
-- increase judged at now() would take effect on the wall clock's 24 h, not business time's.
CREATE OR REPLACE FUNCTION public.rules_business_now(p_rules jsonb)
 RETURNS timestamp with time zone
 LANGUAGE plpgsql
 IMMUTABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
BEGIN
  IF p_rules->>'now_ms' IS NULL THEN
    RAISE EXCEPTION 'the rules carry no now_ms: a Pix rule is decided at business time, passed in';
  END IF;
  RETURN ms_to_timestamptz((p_rules->>'now_ms')::bigint);
END $function$;
