-- Release (compensation): local, idempotent, no entries (a hold never moved money).
CREATE OR REPLACE FUNCTION public.ledger_release(p_hold_id uuid)
 RETURNS text
 LANGUAGE plpgsql
AS $function$
DECLARE v_hold holds%ROWTYPE;
BEGIN
  UPDATE holds SET status = 'released', resolved_at = now()
    WHERE id = p_hold_id AND status = 'held' RETURNING * INTO v_hold;
  IF v_hold.id IS NULL THEN
    SELECT * INTO v_hold FROM holds WHERE id = p_hold_id;
    IF v_hold.id IS NULL THEN RETURN 'hold_not_found'; END IF;
    RETURN 'already_' || v_hold.status;
  END IF;
  UPDATE accounts SET held_cents = held_cents - v_hold.amount_cents WHERE id = v_hold.account_id;
  RETURN 'released';
END $function$;
