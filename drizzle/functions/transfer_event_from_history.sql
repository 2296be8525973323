-- Retired: until migration 0012 a history row's event was a second row, written by this trigger
-- function (trigger transfer_history_event of 0001). Each history row is now its own event
-- (transfer_history_as_event), and 0012 replaced the trigger. The function stays only because
-- 0001, which a new database still runs, names it; nothing calls it.
CREATE OR REPLACE FUNCTION public.transfer_event_from_history()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
AS $function$
BEGIN
  RAISE EXCEPTION 'transfer_event_from_history is retired: a history row is its own event (transfer_history_as_event)';
END $function$;
