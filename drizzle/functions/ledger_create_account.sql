-- Opens a customer account. Ledger functions are each one atomic round trip that answers a value
-- from a closed set (src/ledger/results.ts); here created or already_exists.
CREATE OR REPLACE FUNCTION public.ledger_create_account(p_account_id text)
 RETURNS text
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
BEGIN
  INSERT INTO accounts (id, kind) VALUES (p_account_id, 'customer') ON CONFLICT (id) DO NOTHING;
  IF FOUND THEN RETURN 'created'; END IF;
  RETURN 'already_exists';
END $function$;
