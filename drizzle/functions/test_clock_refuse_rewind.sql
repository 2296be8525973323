-- The test clock only moves forward (CONTRACT §4): business time going backwards would undo
-- days already counted, windows already closed and schedules already run. The only writer adds a
-- positive amount; this trigger (test_clock_only_forward, drizzle/0004_test_clock.sql) keeps any
-- other writer, a console or a hand-typed UPDATE, from rewinding it.
CREATE OR REPLACE FUNCTION public.test_clock_refuse_rewind()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
AS $function$
BEGIN
  IF TG_OP <> 'UPDATE' OR NEW.offset_ms < OLD.offset_ms THEN
    RAISE EXCEPTION 'the test clock only moves forward (% refused)', TG_OP USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $function$;
