-- What the schema needs beyond drizzle-kit's tables, once the functions exist (their bodies are
-- in drizzle/functions/): the house accounts, the ledger's triggers, a deferred key drizzle cannot
-- declare, the state machine's CHECK, the operators' audit and the outbox's guarantees.

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
-- A transfer's first hop is `started` (sent at once) or `scheduled` (for a later day).
-- A transition is written as its history row in the same transaction as the state change, so a
-- refused hop rolls back the whole step. A CHECK rather than a foreign key to a table of
-- transitions: a key check would share-lock the same few rows from every transfer (MultiXacts,
-- see above); the function reads only its arguments.
ALTER TABLE "transfer_history" ADD CONSTRAINT "transfer_history_transition_allowed"
  CHECK (("from_state" IS NULL AND "to_state" IN ('started', 'scheduled')) OR transfer_transition_allowed("from_state", "to_state"));
--> statement-breakpoint
-- Every history row an operator writes adds its operator_actions row in the same transaction.
CREATE TRIGGER transfer_history_audits_operators AFTER INSERT ON transfer_history
  FOR EACH ROW WHEN (NEW.actor = 'operator') EXECUTE FUNCTION operator_actions_from_history();
--> statement-breakpoint
-- The outbox's guarantees (CONTRACT §6), held by the database whoever writes: every history row
-- gets its event in the statement that inserts it; a transfer's state is always the last one its
-- history records (checked at COMMIT); events never change but for their delivery, never vanish.
CREATE TRIGGER transfer_history_event AFTER INSERT ON transfer_history
  FOR EACH ROW EXECUTE FUNCTION transfer_event_from_history();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER transfers_state_recorded_on_insert AFTER INSERT ON transfers
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION transfer_check_recorded();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER transfers_state_recorded AFTER UPDATE OF state ON transfers
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state)
  EXECUTE FUNCTION transfer_check_recorded();
--> statement-breakpoint
CREATE TRIGGER transfer_events_immutable BEFORE UPDATE OR DELETE ON transfer_events
  FOR EACH ROW EXECUTE FUNCTION transfer_events_refuse_change();
--> statement-breakpoint
CREATE TRIGGER transfer_events_no_truncate BEFORE TRUNCATE ON transfer_events
  FOR EACH STATEMENT EXECUTE FUNCTION transfer_events_refuse_change();
--> statement-breakpoint
-- The same for returns: every transfer_returns row gets its transfer.returned event in the
-- statement that inserts it, and at COMMIT a transfer's transfer.returned events are exactly as
-- many as its returns, so no return is without its event and no such event without its return.
CREATE TRIGGER transfer_returns_event AFTER INSERT ON transfer_returns
  FOR EACH ROW EXECUTE FUNCTION transfer_event_from_return();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER transfer_returns_announced AFTER INSERT ON transfer_returns
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION transfer_check_returns_announced();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER transfer_events_returned_counted AFTER INSERT ON transfer_events
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.type = 'transfer.returned')
  EXECUTE FUNCTION transfer_check_returns_announced();
