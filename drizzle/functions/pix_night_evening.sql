-- The night window a São Paulo instant falls in, named by its evening: from the account's start
-- (minute of the day) to 06:00 the next morning, so 05:59 belongs to the evening before. NULL
-- outside the window.
CREATE OR REPLACE FUNCTION public.pix_night_evening(p_local_day date, p_local_minute integer, p_night_start_minute integer)
 RETURNS date
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
  SELECT CASE
    WHEN p_local_minute < 6 * 60 THEN p_local_day - 1
    WHEN p_local_minute >= p_night_start_minute THEN p_local_day
  END
$function$;
