-- A return's transfer.returned event, by construction: every transfer_returns row gets its
-- event in the statement that inserts it (trigger transfer_returns_event), so no writer, not
-- even a bare INSERT, records a return without announcing it, and no fault falls between them.
-- The resource is transfer_json's as of this insert: the return's credit and returned_cents are
-- already in it (transfer_return_apply writes them first, in the same transaction).
CREATE OR REPLACE FUNCTION public.transfer_event_from_return()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
AS $function$
BEGIN
  PERFORM transfer_event_insert(NEW.transfer_id, 'transfer.returned', NULL, now(), NULL);
  RETURN NULL;
END $function$;
