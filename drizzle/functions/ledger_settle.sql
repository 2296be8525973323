-- Settle: the hold becomes a final debit against the Pix clearing account.
CREATE OR REPLACE FUNCTION public.ledger_settle(p_hold_id uuid, p_op_key text)
 RETURNS text
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
DECLARE
  v_hold holds%ROWTYPE;
  v_tx_id bigint;
  v_balance bigint;
BEGIN
  v_hold := hold_resolve(p_hold_id, 'settled');
  IF v_hold.id IS NULL THEN RETURN hold_refusal(p_hold_id); END IF;
  UPDATE accounts SET balance_cents = balance_cents - v_hold.amount_cents,
                      held_cents = held_cents - v_hold.amount_cents
    WHERE id = v_hold.account_id RETURNING balance_cents INTO v_balance;
  INSERT INTO ledger_transactions (op_key, kind, account_id, amount_cents, hold_id)
    VALUES (p_op_key, 'settle', v_hold.account_id, v_hold.amount_cents, v_hold.id)
    RETURNING id INTO v_tx_id;
  INSERT INTO entries (transaction_id, account_id, amount_cents, balance_after_cents) VALUES
    (v_tx_id, v_hold.account_id, -v_hold.amount_cents, v_balance),
    (v_tx_id, 'house:pix_clearing', v_hold.amount_cents, NULL);
  RETURN 'settled';
END $function$;
