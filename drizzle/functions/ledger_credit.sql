-- Credit from the funding account. The house side is append-only: no row update, no contention.
CREATE OR REPLACE FUNCTION public.ledger_credit(p_op_key text, p_account_id text, p_amount_cents bigint)
 RETURNS text
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
DECLARE
  v_tx_id bigint;
  v_existing ledger_transactions%ROWTYPE;
  v_balance bigint;
BEGIN
  PERFORM 1 FROM accounts WHERE id = p_account_id AND kind = 'customer';
  IF NOT FOUND THEN RETURN 'account_not_found'; END IF;
  INSERT INTO ledger_transactions (op_key, kind, account_id, amount_cents)
    VALUES (p_op_key, 'credit', p_account_id, p_amount_cents)
    ON CONFLICT (op_key) DO NOTHING RETURNING id INTO v_tx_id;
  IF v_tx_id IS NULL THEN
    SELECT * INTO v_existing FROM ledger_transactions WHERE op_key = p_op_key;
    IF v_existing.kind = 'credit' AND v_existing.account_id = p_account_id
       AND v_existing.amount_cents = p_amount_cents THEN
      RETURN 'already_credited';
    END IF;
    RETURN 'exists_with_different_fields';
  END IF;
  UPDATE accounts SET balance_cents = balance_cents + p_amount_cents
    WHERE id = p_account_id RETURNING balance_cents INTO v_balance;
  INSERT INTO entries (transaction_id, account_id, amount_cents, balance_after_cents) VALUES
    (v_tx_id, p_account_id, p_amount_cents, v_balance),
    (v_tx_id, 'house:funding', -p_amount_cents, NULL);
  RETURN 'credited';
END $function$;
