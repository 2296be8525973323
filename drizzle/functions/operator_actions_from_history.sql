-- A transfer resolution is audited by the same transaction that records it: every history row
-- written by an operator (transfer_apply, from POST /ops/transfers/:id/resolve or the console)
-- adds its operator_actions row (trigger transfer_history_audits_operators). The actor and the
-- note travel in the row's evidence.
CREATE OR REPLACE FUNCTION public.operator_actions_from_history()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
BEGIN
  INSERT INTO operator_actions (at, actor, action, account_id, transfer_id, details)
  SELECT NEW.at, coalesce(NEW.evidence->>'operator', 'operator'), 'transfer_resolved', t.account_id, NEW.transfer_id,
         jsonb_build_object('outcome', NEW.evidence->>'outcome', 'note', NEW.evidence->>'operator_note',
                            'from', NEW.from_state, 'to', NEW.to_state)
    FROM transfers t WHERE t.id = NEW.transfer_id;
  RETURN NULL;
END $function$;
