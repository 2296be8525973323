-- How far the sandbox's test clock is ahead of the wall clock (drizzle/0004_test_clock.sql);
-- nothing before its first advance. Read only when the caller says the sandbox is on
-- (transfer_open's `test_clock`): with it off, business time is the wall clock.
CREATE OR REPLACE FUNCTION public.test_clock_offset()
 RETURNS interval
 LANGUAGE sql
 STABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
  SELECT coalesce((SELECT offset_ms FROM test_clock WHERE singleton), 0) * interval '1 millisecond'
$function$;
