-- What-if (`npm run bench -- --what-if=bench/what-if/no-table-checks.sql`): a completed
-- transfer's SQL without the database's own checks on what it writes, to measure what they cost
-- it. Drops every CHECK constraint and every constraint trigger (deferred: a transfer's state is
-- its last hop; a ledger transaction's entries balance) of the tables a transfer writes, except
-- on `accounts`, whose CHECKs the raw UPDATE (the cost target's reference) pays as well. The
-- history's BEFORE INSERT trigger stays: it writes each hop's event, which the contract promises.
-- Never for a real database: these checks are what keeps a balance from going negative and an
-- event from going missing.
DO $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT conrelid::regclass AS tbl, conname FROM pg_constraint
    WHERE contype = 'c'
      AND conrelid::regclass::text IN ('transfers', 'transfer_history', 'holds', 'limit_usage', 'ledger_transactions', 'entries') LOOP
    EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', r.tbl, r.conname);
  END LOOP;
  FOR r IN SELECT tgrelid::regclass AS tbl, tgname FROM pg_trigger
    WHERE NOT tgisinternal AND tgconstraint <> 0
      AND tgrelid::regclass::text IN ('transfers', 'transfer_history', 'holds', 'limit_usage', 'ledger_transactions', 'entries') LOOP
    EXECUTE format('DROP TRIGGER %I ON %s', r.tgname, r.tbl);
  END LOOP;
END $$;
