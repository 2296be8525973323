-- Entries are append-only: corrections are new entries, never edits (triggers entries_no_update_or_delete
-- and entries_no_truncate).
CREATE OR REPLACE FUNCTION public.entries_refuse_change()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
AS $function$
BEGIN
  RAISE EXCEPTION 'ledger entries are append-only (% refused)', TG_OP USING ERRCODE = 'integrity_constraint_violation';
END $function$;
