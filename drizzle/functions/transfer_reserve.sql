-- The Pix rules and the hold of a transfer that starts now: shared by transfer_open (a transfer
-- sent at once that its fast path did not take: one refused or short of funds) and
-- transfer_run_scheduled (a scheduled one on its day), inside the caller's
-- transaction, with the account row already locked by the caller, so the daily sum, the
-- velocity count and the hold are decided together and cannot be raced. The transfer is in
-- `started`, or still `scheduled` (then it is moved to `started` here, unless it waits for its
-- evening retry).
-- p_retry_at: a scheduled run that may try again; too little available then leaves it
-- `scheduled`, counts the run and moves its next check to p_retry_at, holding nothing (so the
-- retry can hold under the same id). NULL: too little available compensates it at once.
-- A scheduled transfer is checked against the daytime rules (the `daytime_rules` flag of
-- pix_limit_verdict): its payer authorised it when choosing the date (a choice made at night met
-- the night rules then: night_schedule_verdict), and its run in the early hours falls inside
-- every night window (README, "Scheduled transfers"). A transfer to an active trusted recipient
-- (at p_rules.now_ms) meets no night rule and no new-key review either, and spends no night.
-- p_rules.now_ms is the decision's business instant (docs/clock.md): trusted recipients and the
-- run's own instant (ran_at, which the velocity rule counts) are judged by it.
-- The new-device cap (device_rule_verdict) judges the transfer's own device, as registered at the
-- decision: for a scheduled transfer, the device that requested it, at its run.
-- Answers what happened: refused, held, review, insufficient_funds or retry_later.
CREATE OR REPLACE FUNCTION public.transfer_reserve(p_id uuid, p_local_day date, p_local_minute integer, p_rules jsonb, p_retry_at timestamp with time zone)
 RETURNS text
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
DECLARE
  v_t transfers%ROWTYPE;
  v_verdict jsonb;
  v_hold text;
  v_available bigint;
  v_trusted boolean;
  v_now timestamptz := ms_to_timestamptz((p_rules->>'now_ms')::bigint);
  -- NULL: no device rule applies (DEVICE_RULES off, or no device on the transfer).
  v_unregistered boolean;
  v_night_evening date;
BEGIN
  IF v_now IS NULL THEN RAISE EXCEPTION 'transfer_reserve: no now_ms in %', p_rules; END IF;
  SELECT * INTO v_t FROM transfers WHERE id = p_id;
  IF v_t.state NOT IN ('started', 'scheduled') THEN
    RAISE EXCEPTION 'saga invariant violated: reserve for transfer % in %', p_id, v_t.state;
  END IF;
  v_trusted := trusted_recipient_active(v_t.account_id, v_t.pix_key, v_t.pix_key_type, v_now);
  v_unregistered := device_unregistered(v_t.account_id, v_t.device_id, p_rules, v_now);
  v_verdict := coalesce(
    pix_limit_verdict(v_t.account_id, v_t.amount_cents, p_local_day, p_local_minute,
                      p_rules || jsonb_build_object('daytime_rules', v_t.scheduled_for IS NOT NULL OR v_trusted)),
    device_rule_verdict(v_t.account_id, v_t.device_id, v_t.amount_cents, p_local_day, v_unregistered, p_rules),
    fraud_rule_velocity(p_id, v_t.account_id, p_rules));

  IF v_verdict IS NULL AND p_retry_at IS NOT NULL THEN
    SELECT balance_cents - held_cents INTO v_available FROM accounts WHERE id = v_t.account_id;
    IF v_available < v_t.amount_cents THEN
      UPDATE transfers SET short_runs = short_runs + 1, next_check_at = p_retry_at, updated_at = now()
        WHERE id = p_id;
      RETURN 'retry_later';
    END IF;
  END IF;

  IF v_t.state = 'scheduled' THEN
    -- Its day came: the saga's deadline runs from now (the wall clock: a saga timing), as for a
    -- transfer sent at once; ran_at is the business instant of the run (velocity's count).
    UPDATE transfers SET state = 'started', ran_at = v_now, deadline_at = now() + (deadline_at - created_at), updated_at = now()
      WHERE id = p_id;
    INSERT INTO transfer_history (transfer_id, from_state, to_state, reason, actor)
      VALUES (p_id, 'scheduled', 'started', 'scheduled day reached', 'saga');
  END IF;

  IF v_verdict IS NOT NULL THEN
    PERFORM transfer_refuse(p_id, v_verdict);
    RETURN 'refused';
  END IF;
  v_hold := ledger_hold(p_id, v_t.account_id, v_t.amount_cents);
  IF v_hold = 'insufficient_funds' THEN
    UPDATE transfers SET state = 'compensated', failure_reason = 'insufficient_funds', next_check_at = NULL, updated_at = now()
      WHERE id = p_id;
    INSERT INTO transfer_history (transfer_id, from_state, to_state, reason, actor)
      VALUES (p_id, 'started', 'compensated', 'insufficient funds', 'saga');
    PERFORM night_usage_give_back(p_id);
    RETURN 'insufficient_funds';
  ELSIF v_hold <> 'held' THEN
    RAISE EXCEPTION 'saga invariant violated: hold for new transfer % answered %', p_id, v_hold;
  END IF;
  v_night_evening := transfer_reserve_usage(v_t.account_id, v_t.amount_cents, p_local_day, p_local_minute, p_rules,
                                            v_t.scheduled_for IS NULL AND NOT v_trusted, v_unregistered);
  -- A schedule asked for at night keeps the night it was charged when it was asked for.
  UPDATE transfers SET state = 'funds_reserved', next_check_at = now(), limit_day = p_local_day,
                       device_registered = NOT v_unregistered, night_evening = coalesce(v_night_evening, night_evening),
                       updated_at = now()
    WHERE id = p_id;
  INSERT INTO transfer_history (transfer_id, from_state, to_state, reason, actor)
    VALUES (p_id, 'started', 'funds_reserved', 'funds held', 'saga');
  IF NOT v_trusted AND transfer_review_new_key(p_id, p_rules) THEN RETURN 'review'; END IF;
  RETURN 'held';
END $function$;
