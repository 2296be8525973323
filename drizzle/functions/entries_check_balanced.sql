-- Every ledger transaction's entries sum to zero, checked at COMMIT (constraint trigger entries_balanced).
CREATE OR REPLACE FUNCTION public.entries_check_balanced()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
AS $function$
DECLARE total bigint;
BEGIN
  SELECT sum(amount_cents) INTO total FROM entries WHERE transaction_id = NEW.transaction_id;
  IF total <> 0 THEN
    RAISE EXCEPTION 'ledger transaction % does not balance (sum %)', NEW.transaction_id, total
      USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN NULL;
END $function$;
