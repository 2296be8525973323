-- Timestamps as the saga object reads them: epoch milliseconds.
CREATE OR REPLACE FUNCTION public.epoch_ms(ts timestamp with time zone)
 RETURNS bigint
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
  SELECT (extract(epoch FROM ts) * 1000)::bigint
$function$;
