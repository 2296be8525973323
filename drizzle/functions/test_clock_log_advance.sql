-- Every change of the test clock's row (an advance: test_clock_only_forward refuses the rest) is
-- logged with the offset it left (trigger test_clock_advances_logged), so that
-- test_clock_business_at can tell the offset in force at any past moment.
CREATE OR REPLACE FUNCTION public.test_clock_log_advance()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
BEGIN
  INSERT INTO test_clock_advances (advanced_at, offset_ms) VALUES (NEW.advanced_at, NEW.offset_ms);
  RETURN NULL;
END $function$;
