-- The hold is one conditional UPDATE: it succeeds only while available covers the amount, so
-- concurrent holds can never overspend (and the CHECKs stand behind it).
--
-- Two statements on the success path: the hold row, then the conditional UPDATE that also checks
-- the account is a customer's. The separate existence check (an index lookup and an SPI statement
-- per hold) runs only when the UPDATE matched nothing, to tell a missing account from missing
-- funds. With the account key deferred (holds_account_id_accounts_id_fk, checked at COMMIT), a hold
-- row for a missing account is deleted before the function answers account_not_found, so nothing
-- of it reaches COMMIT.
CREATE OR REPLACE FUNCTION public.ledger_hold(p_hold_id uuid, p_account_id text, p_amount_cents bigint)
 RETURNS text
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
DECLARE
  v_existing holds%ROWTYPE;
  v_inserted uuid;
BEGIN
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
    WHERE id = p_account_id AND kind = 'customer' AND balance_cents - held_cents >= p_amount_cents;
  IF FOUND THEN RETURN 'held'; END IF;
  PERFORM 1 FROM accounts WHERE id = p_account_id AND kind = 'customer';
  IF NOT FOUND THEN
    DELETE FROM holds WHERE id = p_hold_id;
    RETURN 'account_not_found';
  END IF;
  UPDATE holds SET status = 'refused', resolved_at = now() WHERE id = p_hold_id;
  RETURN 'insufficient_funds';
END $function$;
