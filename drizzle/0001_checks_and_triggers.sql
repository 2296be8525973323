-- What the schema needs beyond drizzle-kit's tables, once the functions exist: the house
-- accounts, the ledger's triggers, the state machine's CHECK (their functions are in
-- drizzle/functions/) and a deferred key drizzle cannot declare.

INSERT INTO accounts (id, kind) VALUES ('house:funding', 'funding'), ('house:pix_clearing', 'clearing')
ON CONFLICT (id) DO NOTHING;
--> statement-breakpoint
CREATE TRIGGER entries_no_update_or_delete BEFORE UPDATE OR DELETE ON entries
  FOR EACH ROW EXECUTE FUNCTION entries_refuse_change();
--> statement-breakpoint
CREATE TRIGGER entries_no_truncate BEFORE TRUNCATE ON entries
  FOR EACH STATEMENT EXECUTE FUNCTION entries_refuse_change();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER entries_balanced AFTER INSERT ON entries
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION entries_check_balanced();
--> statement-breakpoint
-- The hold row's foreign key to its account, checked at COMMIT instead of at the INSERT.
--
-- ledger_hold inserts the hold row and then takes the account row with its conditional UPDATE.
-- Checked at the INSERT, the key takes a FOR KEY SHARE lock on an account row that another
-- transaction may be updating; on a hot account every such pair becomes a MultiXact (3.8 per
-- hold measured by `npm run bench`, diag "MultiXacts per ledger hold()"), and MultiXacts are
-- slow to create and to clean up. Checked at COMMIT, the row is already ours from the UPDATE,
-- and the check is a lookup of a row we hold. Integrity is unchanged: a hold for an account
-- that does not exist still cannot commit (accounts are never deleted, and ledger_hold
-- answers account_not_found before anything of it reaches COMMIT).
ALTER TABLE "holds" ALTER CONSTRAINT "holds_account_id_accounts_id_fk" DEFERRABLE INITIALLY DEFERRED;
--> statement-breakpoint
-- Every recorded hop is one the state machine of src/saga/states.ts allows (the function is
-- generated from it), whoever writes it: transfer_open, transfer_apply or anything added later.
-- A transition is written as its history row in the same transaction as the state change, so a
-- refused hop rolls back the whole step. A CHECK rather than a foreign key to a table of
-- transitions: a key check would share-lock the same few rows from every transfer (MultiXacts,
-- see above); the function reads only its arguments.
ALTER TABLE "transfer_history" ADD CONSTRAINT "transfer_history_transition_allowed"
  CHECK (("from_state" IS NULL AND "to_state" = 'started') OR transfer_transition_allowed("from_state", "to_state"));
