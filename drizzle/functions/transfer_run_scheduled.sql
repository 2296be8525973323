-- A scheduled transfer's run on its day, from its saga object's alarm: the Pix rules and the
-- hold then (transfer_reserve), in one transaction. The transfer row is locked first and then
-- its account (the order transfer_apply takes them in), and the run is guarded by the state:
-- a transfer no longer `scheduled` (canceled, or run by an earlier step) is answered as it is.
-- p_retry_at_ms: when a run that finds too little available tries again (its evening slot);
-- NULL for its last run, which then ends it compensated with insufficient_funds.
-- An occurrence of a recurrence locks its recurrence before anything (the order every writer of
-- a recurrence takes: recurrence, transfer, account) and opens what comes after it in the same
-- transaction (recurring_after_run, with p_follow_ups); `opened` lists those transfers.
CREATE OR REPLACE FUNCTION public.transfer_run_scheduled(p_id uuid, p_local_day date, p_local_minute integer, p_rules jsonb, p_retry_at_ms bigint, p_follow_ups jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
DECLARE
  v_ran text;
  v_refusal jsonb;
  v_opened jsonb;
BEGIN
  PERFORM 1 FROM recurring_transfers WHERE id = (SELECT recurring_transfer_id FROM transfers WHERE id = p_id) FOR UPDATE;
  v_refusal := transfer_lock_scheduled(p_id, 'state_mismatch');
  IF v_refusal IS NOT NULL THEN RETURN v_refusal; END IF;
  PERFORM 1 FROM accounts WHERE id = (SELECT account_id FROM transfers WHERE id = p_id) FOR UPDATE;
  v_ran := transfer_reserve(p_id, p_local_day, p_local_minute, p_rules, ms_to_timestamptz(p_retry_at_ms));
  v_opened := recurring_after_run(p_id, v_ran, p_follow_ups);
  RETURN jsonb_build_object('outcome', 'applied', 'ran', v_ran, 'opened', v_opened,
                            'saga', (SELECT transfer_saga_json(t) FROM transfers t WHERE t.id = p_id));
END $function$;
