-- One provider reconciliation run, recorded in one transaction: the run with its verdict (ok
-- when the whole statement was read and nothing diverged), a case opened for every transfer
-- the provider paid after we released it (kept open, with its evidence, until an operator
-- decides it; a case already open or decided stays as it is), and the reconciliation_run
-- action with its actor (CONTRACT §5). Returns the run's id.
CREATE OR REPLACE FUNCTION public.provider_reconciliation_record(p_from timestamp with time zone, p_to timestamp with time zone, p_actor text, p_statement_problem text, p_checked integer, p_returns_applied integer, p_divergences jsonb)
 RETURNS bigint
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
DECLARE
  v_run_id bigint;
BEGIN
  INSERT INTO provider_reconciliation_runs
      (window_from, window_to, actor, ok, statement_complete, statement_problem, checked, returns_applied, divergences)
    VALUES (p_from, p_to, p_actor, p_statement_problem IS NULL AND jsonb_array_length(p_divergences) = 0,
            p_statement_problem IS NULL, p_statement_problem, p_checked, p_returns_applied, p_divergences)
    RETURNING id INTO v_run_id;

  INSERT INTO provider_reconciliation_cases (transfer_id, end_to_end_id, run_id, evidence)
    SELECT t.id, d->>'end_to_end_id', v_run_id,
           jsonb_build_object(
             'ours', d->'ours',
             'provider', d->'provider',
             'release', (SELECT jsonb_build_object('at', rfc3339(h.at), 'reason', h.reason, 'actor', h.actor, 'evidence', h.evidence)
                           FROM transfer_history h
                          WHERE h.transfer_id = t.id AND h.to_state = 'compensated' ORDER BY h.id LIMIT 1))
      FROM jsonb_array_elements(p_divergences) d
      JOIN transfers t ON t.id::text = d->>'transfer_id'
     WHERE d->>'kind' = 'paid_after_release'
    ON CONFLICT (transfer_id) DO NOTHING;

  INSERT INTO operator_actions (actor, action, details)
    VALUES (p_actor, 'reconciliation_run', jsonb_build_object(
      'kind', 'provider', 'run_id', v_run_id, 'from', rfc3339(p_from), 'to', rfc3339(p_to),
      'ok', p_statement_problem IS NULL AND jsonb_array_length(p_divergences) = 0,
      'checked', p_checked, 'returns_applied', p_returns_applied,
      'divergences', jsonb_array_length(p_divergences), 'statement_problem', p_statement_problem));
  RETURN v_run_id;
END $function$;
