-- A return (devolução, MED): money that comes back after a completed Pix. It credits the
-- customer against Pix clearing (the mirror of the settle), keyed by the provider's return id,
-- so whoever reports it first (a status check, reconciliation) credits it and every other
-- caller sees already_applied. The transfer row is locked first (the order transfer_apply uses:
-- transfer, then account), so concurrent returns of one transfer are decided one at a time and
-- their sum is checked against the amount here, before transfers_returned_within_amount would
-- refuse it. The state stays `completed`; the return is announced by a `transfer.returned`
-- event that its row's insert writes (trigger transfer_returns_event, the outbox of CONTRACT §6),
-- showing the resource with it. Results:
-- applied | already_applied | exists_with_different_fields | transfer_not_found |
-- transfer_not_completed | exceeds_transfer_amount.
CREATE OR REPLACE FUNCTION public.transfer_return_apply(p_transfer_id uuid, p_return_id text, p_amount_cents bigint, p_reason text, p_returned_at timestamp with time zone)
 RETURNS text
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
DECLARE
  v_t transfers%ROWTYPE;
  v_existing transfer_returns%ROWTYPE;
  v_tx_id bigint;
  v_balance bigint;
BEGIN
  SELECT * INTO v_t FROM transfers WHERE id = p_transfer_id FOR UPDATE;
  IF v_t.id IS NULL THEN RETURN 'transfer_not_found'; END IF;
  SELECT * INTO v_existing FROM transfer_returns WHERE id = p_return_id;
  IF v_existing.id IS NOT NULL THEN
    IF v_existing.transfer_id = p_transfer_id AND v_existing.amount_cents = p_amount_cents
       AND v_existing.reason = p_reason THEN
      RETURN 'already_applied';
    END IF;
    RETURN 'exists_with_different_fields';
  END IF;
  IF v_t.state <> 'completed' THEN RETURN 'transfer_not_completed'; END IF;
  IF v_t.returned_cents + p_amount_cents > v_t.amount_cents THEN RETURN 'exceeds_transfer_amount'; END IF;

  UPDATE transfers SET returned_cents = returned_cents + p_amount_cents, updated_at = now()
    WHERE id = p_transfer_id;
  UPDATE accounts SET balance_cents = balance_cents + p_amount_cents
    WHERE id = v_t.account_id RETURNING balance_cents INTO v_balance;
  INSERT INTO ledger_transactions (op_key, kind, account_id, amount_cents)
    VALUES ('return:' || p_return_id, 'return', v_t.account_id, p_amount_cents)
    RETURNING id INTO v_tx_id;
  INSERT INTO entries (transaction_id, account_id, amount_cents, balance_after_cents) VALUES
    (v_tx_id, v_t.account_id, p_amount_cents, v_balance),
    (v_tx_id, 'house:pix_clearing', -p_amount_cents, NULL);
  INSERT INTO transfer_returns (id, transfer_id, amount_cents, reason, returned_at, ledger_transaction_id)
    VALUES (p_return_id, p_transfer_id, p_amount_cents, p_reason, p_returned_at, v_tx_id);
  RETURN 'applied';
END $function$;
