-- What is recorded stays as recorded: the operators' audit trail and the transfers' history
-- (triggers *_no_update_or_delete and *_no_truncate, drizzle/0002_operator_identity.sql).
-- A correction is a new row, never an edit.
CREATE OR REPLACE FUNCTION public.append_only_refuse_change()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
AS $function$
BEGIN
  RAISE EXCEPTION '% is append-only (% refused)', TG_TABLE_NAME, TG_OP USING ERRCODE = 'integrity_constraint_violation';
END $function$;
