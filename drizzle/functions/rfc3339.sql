-- Timestamps as the API writes them (CONTRACT §2): UTC, milliseconds, a Z.
CREATE OR REPLACE FUNCTION public.rfc3339(ts timestamp with time zone)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
  SELECT to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$function$;
