-- Epoch milliseconds from the saga object back to a timestamp; NULL stays NULL.
CREATE OR REPLACE FUNCTION public.ms_to_timestamptz(ms bigint)
 RETURNS timestamp with time zone
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
  SELECT CASE WHEN ms IS NULL THEN NULL ELSE to_timestamp(ms / 1000.0) END
$function$;
