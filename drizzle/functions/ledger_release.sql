-- Release (compensation): local, idempotent, no entries (a hold never moved money).
CREATE OR REPLACE FUNCTION public.ledger_release(p_hold_id uuid)
 RETURNS text
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
DECLARE v_hold holds%ROWTYPE;
BEGIN
  v_hold := hold_resolve(p_hold_id, 'released');
  IF v_hold.id IS NULL THEN RETURN hold_refusal(p_hold_id); END IF;
  UPDATE accounts SET held_cents = held_cents - v_hold.amount_cents WHERE id = v_hold.account_id;
  RETURN 'released';
END $function$;
