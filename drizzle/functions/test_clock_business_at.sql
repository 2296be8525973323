-- Business time at a past wall-clock moment (docs/clock.md): the moment plus the test clock's
-- offset in force then, from its logged advances (test_clock_advances). A rule counted from a
-- recorded event, such as a contestation's 80 days from its transfer's completion, needs the
-- event's business time: today's offset would move the event forward with every advance since.
-- The offset only grows, so the largest one logged by then is the one in force. Read only when
-- the caller says the sandbox is on; with it off, business time is the wall clock.
CREATE OR REPLACE FUNCTION public.test_clock_business_at(p_wall timestamp with time zone)
 RETURNS timestamp with time zone
 LANGUAGE sql
 STABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
  SELECT p_wall + coalesce((SELECT max(a.offset_ms) FROM test_clock_advances a WHERE a.advanced_at <= p_wall), 0)
                  * interval '1 millisecond'
$function$;
