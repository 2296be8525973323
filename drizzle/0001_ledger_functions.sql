-- Ledger operations as SQL functions: each is one atomic round trip, takes row locks only for
-- the duration of its own statement sequence, and returns its result as a value.
-- Results (closed set): held, insufficient_funds, settled, released, credited,
-- already_held, already_refused, already_settled, already_released, already_credited,
-- exists_with_different_fields, account_not_found, hold_not_found.

INSERT INTO accounts (id, kind) VALUES ('house:funding', 'funding'), ('house:pix_clearing', 'clearing')
ON CONFLICT (id) DO NOTHING;
--> statement-breakpoint

-- Entries are append-only: corrections are new entries, never edits.
CREATE FUNCTION entries_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger entries are append-only (% refused)', TG_OP USING ERRCODE = 'integrity_constraint_violation';
END $$;
--> statement-breakpoint
CREATE TRIGGER entries_no_update_or_delete BEFORE UPDATE OR DELETE ON entries
  FOR EACH ROW EXECUTE FUNCTION entries_refuse_change();
--> statement-breakpoint
CREATE TRIGGER entries_no_truncate BEFORE TRUNCATE ON entries
  FOR EACH STATEMENT EXECUTE FUNCTION entries_refuse_change();
--> statement-breakpoint

-- Every ledger transaction's entries sum to zero, checked at COMMIT.
CREATE FUNCTION entries_check_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE total bigint;
BEGIN
  SELECT sum(amount_cents) INTO total FROM entries WHERE transaction_id = NEW.transaction_id;
  IF total <> 0 THEN
    RAISE EXCEPTION 'ledger transaction % does not balance (sum %)', NEW.transaction_id, total
      USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER entries_balanced AFTER INSERT ON entries
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION entries_check_balanced();
--> statement-breakpoint

CREATE FUNCTION ledger_create_account(p_account_id text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO accounts (id, kind) VALUES (p_account_id, 'customer') ON CONFLICT (id) DO NOTHING;
  IF FOUND THEN RETURN 'created'; END IF;
  RETURN 'already_exists';
END $$;
--> statement-breakpoint

-- Credit from the funding account. The house side is append-only: no row update, no contention.
CREATE FUNCTION ledger_credit(p_op_key text, p_account_id text, p_amount_cents bigint)
RETURNS text LANGUAGE plpgsql AS $$
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
END $$;
--> statement-breakpoint

-- The hold is one conditional UPDATE: it succeeds only while available covers the amount,
-- so concurrent holds can never overspend (and the CHECKs stand behind it).
CREATE FUNCTION ledger_hold(p_hold_id uuid, p_account_id text, p_amount_cents bigint)
RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  v_existing holds%ROWTYPE;
  v_inserted uuid;
BEGIN
  PERFORM 1 FROM accounts WHERE id = p_account_id AND kind = 'customer';
  IF NOT FOUND THEN RETURN 'account_not_found'; END IF;
  INSERT INTO holds (id, account_id, amount_cents, status)
    VALUES (p_hold_id, p_account_id, p_amount_cents, 'held')
    ON CONFLICT (id) DO NOTHING RETURNING id INTO v_inserted;
  IF v_inserted IS NULL THEN
    SELECT * INTO v_existing FROM holds WHERE id = p_hold_id;
    IF v_existing.account_id <> p_account_id OR v_existing.amount_cents <> p_amount_cents THEN
      RETURN 'exists_with_different_fields';
    END IF;
    RETURN CASE v_existing.status WHEN 'refused' THEN 'already_refused' ELSE 'already_held' END;
  END IF;
  UPDATE accounts SET held_cents = held_cents + p_amount_cents
    WHERE id = p_account_id AND balance_cents - held_cents >= p_amount_cents;
  IF FOUND THEN RETURN 'held'; END IF;
  UPDATE holds SET status = 'refused', resolved_at = now() WHERE id = p_hold_id;
  RETURN 'insufficient_funds';
END $$;
--> statement-breakpoint

-- Settle: the hold becomes a final debit against the Pix clearing account.
CREATE FUNCTION ledger_settle(p_hold_id uuid, p_op_key text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  v_hold holds%ROWTYPE;
  v_tx_id bigint;
  v_balance bigint;
BEGIN
  UPDATE holds SET status = 'settled', resolved_at = now()
    WHERE id = p_hold_id AND status = 'held' RETURNING * INTO v_hold;
  IF v_hold.id IS NULL THEN
    SELECT * INTO v_hold FROM holds WHERE id = p_hold_id;
    IF v_hold.id IS NULL THEN RETURN 'hold_not_found'; END IF;
    RETURN 'already_' || v_hold.status;
  END IF;
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
END $$;
--> statement-breakpoint

-- Release (compensation): local, idempotent, no entries (a hold never moved money).
CREATE FUNCTION ledger_release(p_hold_id uuid) RETURNS text LANGUAGE plpgsql AS $$
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
END $$;
--> statement-breakpoint

-- Reconciliation: one read of the whole ledger. Divergences are returned, never repaired.
CREATE FUNCTION ledger_reconcile() RETURNS jsonb LANGUAGE sql STABLE AS $$
  WITH entry_sums AS (
    SELECT account_id, sum(amount_cents) AS total FROM entries GROUP BY account_id
  ), open_holds AS (
    SELECT account_id, sum(amount_cents) AS total FROM holds WHERE status = 'held' GROUP BY account_id
  ), per_account AS (
    SELECT a.id, a.kind, a.balance_cents, a.held_cents,
           coalesce(e.total, 0) AS entries_cents, coalesce(h.total, 0) AS open_holds_cents
    FROM accounts a
    LEFT JOIN entry_sums e ON e.account_id = a.id
    LEFT JOIN open_holds h ON h.account_id = a.id
  ), unbalanced AS (
    SELECT transaction_id, sum(amount_cents) AS total FROM entries
    GROUP BY transaction_id HAVING sum(amount_cents) <> 0
  ), divergences AS (
    SELECT jsonb_build_object('kind', 'balance_differs_from_entries', 'account_id', id,
             'balance_cents', balance_cents, 'entries_cents', entries_cents) AS d
      FROM per_account WHERE kind = 'customer' AND balance_cents <> entries_cents
    UNION ALL
    SELECT jsonb_build_object('kind', 'held_differs_from_open_holds', 'account_id', id,
             'held_cents', held_cents, 'open_holds_cents', open_holds_cents)
      FROM per_account WHERE held_cents <> open_holds_cents
    UNION ALL
    SELECT jsonb_build_object('kind', 'transaction_unbalanced', 'transaction_id', transaction_id,
             'sum_cents', total)
      FROM unbalanced
    UNION ALL
    SELECT jsonb_build_object('kind', 'entries_do_not_sum_to_zero', 'sum_cents', total)
      FROM (SELECT coalesce(sum(amount_cents), 0) AS total FROM entries) s WHERE total <> 0
  )
  SELECT jsonb_build_object(
    'ok', NOT EXISTS (SELECT 1 FROM divergences),
    'accounts_checked', (SELECT count(*) FROM accounts WHERE kind = 'customer'),
    'divergences', coalesce((SELECT jsonb_agg(d) FROM divergences), '[]'::jsonb));
$$;
