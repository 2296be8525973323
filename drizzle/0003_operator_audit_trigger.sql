-- Every history row an operator writes adds its operator_actions row in the same transaction
-- (the function is drizzle/functions/operator_actions_from_history.sql).
CREATE TRIGGER transfer_history_audits_operators AFTER INSERT ON transfer_history
  FOR EACH ROW WHEN (NEW.actor = 'operator') EXECUTE FUNCTION operator_actions_from_history();
