-- What-if (`npm run bench -- --what-if=bench/what-if/no-table-checks.sql`): a completed
-- transfer's SQL without the checks its tables make of what it writes, to measure what they
-- cost it. Drops every CHECK constraint and every constraint trigger (deferred: a transfer's
-- state is its last hop; a ledger transaction's entries balance) of the tables a transfer writes,
-- except on `accounts`, whose CHECKs the raw UPDATE (the cost target's reference) pays as well.
-- Foreign keys, NOT NULL, UNIQUE and every ordinary trigger stay, the history's BEFORE INSERT
-- trigger among them: it writes each hop's event, which the contract promises.
-- Never for a real database: these checks keep a ledger transaction balanced, every hop within
-- the state machine, and a transfer's state on a recorded hop (no state change without its event).
DO $$
DECLARE
  r record;
  v_checks integer := 0;
  v_triggers integer := 0;
BEGIN
  FOR r IN SELECT conrelid::regclass AS tbl, conname FROM pg_constraint
    WHERE contype = 'c'
      AND conrelid::regclass::text IN ('transfers', 'transfer_history', 'holds', 'limit_usage', 'ledger_transactions', 'entries') LOOP
    EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', r.tbl, r.conname);
    v_checks := v_checks + 1;
  END LOOP;
  FOR r IN SELECT tgrelid::regclass AS tbl, tgname FROM pg_trigger
    WHERE NOT tgisinternal AND tgconstraint <> 0
      AND tgrelid::regclass::text IN ('transfers', 'transfer_history', 'holds', 'limit_usage', 'ledger_transactions', 'entries') LOOP
    EXECUTE format('DROP TRIGGER %I ON %s', r.tgname, r.tbl);
    v_triggers := v_triggers + 1;
  END LOOP;
  -- A renamed table would leave a what-if that changed nothing, reported as if it had.
  IF v_checks = 0 OR v_triggers = 0 THEN
    RAISE EXCEPTION 'no-table-checks: dropped % CHECKs and % constraint triggers; the tables it names have moved', v_checks, v_triggers;
  END IF;
  RAISE NOTICE 'no-table-checks: dropped % CHECKs and % constraint triggers', v_checks, v_triggers;
END $$;
