-- Create a recurring transfer and its first occurrence (POST /v1/recurring-transfers), one
-- transaction, with transfer_open's Idempotency-Key protocol: one opener per (account, key) under
-- an advisory lock, a finished request answered from its stored first response before the
-- account is locked, a different request under the same key refused as key_reused.
-- Under the account's row lock, MAX_PENDING_SCHEDULED is decided exactly as for a one-off
-- schedule (scheduled_cap_reached): the first occurrence is one more waiting schedule.
-- The first occurrence is a schedule asked for now, so a request inside the account's night
-- window meets the night rules as transfer_open's one-off schedule does (night_schedule_verdict):
-- refused, the first occurrence opens `started` and ends compensated limit_exceeded at once
-- (transfer_refuse) and the second opens `scheduled` (recurring_after_run, with follow_ups);
-- allowed, the first occurrence charges that night (night_usage_charge, kept on the transfer as
-- night_evening), given back when it is known not to pay (its cancel, its refusal or shortage on
-- its day). The recurrence records the request's device, which every occurrence carries to its run (the new-device cap, judged then).
-- p_recurrence is one record, its fields named (src/transfers/recurring-store.ts builds it):
-- id, account_id, amount_cents, pix_key, pix_key_type, description, idempotency_key,
-- fingerprint, frequency, first_date, count, rules (with now_ms, the request's business
-- instant), deadline_ms, first ({ id, run_at_ms }: the first occurrence's transfer and its
-- slot), follow_ups (what opens after a first occurrence refused now), local_day and
-- local_minute (the request's business São Paulo day and minute) and device_id (the token's
-- device with DEVICE_RULES on, else null); every one present, null where it may be.
-- Answers created or replayed (with the response and `waiting`, the ids of its transfers to be
-- woken: those still scheduled, and on creation a first occurrence refused now, whose object
-- announces it), key_reused, account_not_found or too_many_scheduled.
CREATE OR REPLACE FUNCTION public.recurring_transfer_open(p_recurrence jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
DECLARE
  v_id uuid := (p_recurrence->>'id')::uuid;
  v_account_id text := p_recurrence->>'account_id';
  v_idempotency_key text := p_recurrence->>'idempotency_key';
  v_fingerprint text := p_recurrence->>'fingerprint';
  v_existing recurring_transfers%ROWTYPE;
  v_r recurring_transfers%ROWTYPE;
  v_first uuid;
  v_night jsonb;
  v_waiting jsonb;
  v_response jsonb;
BEGIN
  IF NOT p_recurrence ?& ARRAY['id', 'account_id', 'amount_cents', 'pix_key', 'pix_key_type', 'description', 'idempotency_key',
                               'fingerprint', 'frequency', 'first_date', 'count', 'rules', 'deadline_ms', 'first', 'follow_ups',
                               'local_day', 'local_minute', 'device_id'] THEN
    RAISE EXCEPTION 'recurring_transfer_open: the record lacks a field: %', p_recurrence;
  END IF;
  -- As in transfer_open: the key's own lock may wait for an opener that waits up to 5 s for the account.
  SET LOCAL lock_timeout = '10s';
  PERFORM pg_advisory_xact_lock(hashtext('recurring_transfer_open'), hashtext(v_account_id || ':' || v_idempotency_key));
  SELECT * INTO v_existing FROM recurring_transfers WHERE account_id = v_account_id AND idempotency_key = v_idempotency_key;
  IF FOUND THEN
    IF v_existing.request_fingerprint <> v_fingerprint THEN
      RETURN jsonb_build_object('outcome', 'key_reused', 'recurring_transfer_id', v_existing.id);
    END IF;
    RETURN jsonb_build_object('outcome', 'replayed', 'recurring_transfer_id', v_existing.id, 'response', v_existing.first_response,
                              'waiting', (SELECT coalesce(jsonb_agg(t.id), '[]'::jsonb) FROM transfers t
                                           WHERE t.recurring_transfer_id = v_existing.id AND t.state = 'scheduled'));
  END IF;

  SET LOCAL lock_timeout = '5s';
  PERFORM 1 FROM accounts WHERE id = v_account_id AND kind = 'customer' FOR UPDATE;
  IF NOT FOUND THEN RETURN jsonb_build_object('outcome', 'account_not_found'); END IF;
  IF scheduled_cap_reached(v_account_id, p_recurrence->'rules') THEN
    RETURN jsonb_build_object('outcome', 'too_many_scheduled');
  END IF;
  INSERT INTO recurring_transfers (id, account_id, amount_cents, pix_key, pix_key_type, description, frequency, first_date,
                                   occurrence_count, state, idempotency_key, request_fingerprint, device_id)
    VALUES (v_id, v_account_id, (p_recurrence->>'amount_cents')::bigint, p_recurrence->>'pix_key', p_recurrence->>'pix_key_type',
            p_recurrence->>'description', p_recurrence->>'frequency', (p_recurrence->>'first_date')::date,
            (p_recurrence->>'count')::integer, 'active', v_idempotency_key, v_fingerprint, p_recurrence->>'device_id')
    RETURNING * INTO v_r;
  v_night := night_schedule_verdict(v_account_id, v_r.amount_cents, v_r.pix_key, v_r.pix_key_type,
                                    (p_recurrence->>'local_day')::date, (p_recurrence->>'local_minute')::integer,
                                    p_recurrence->'rules');
  v_first := recurring_occurrence_open(v_r, 1, NULL, v_r.first_date, p_recurrence->'first', (p_recurrence->>'deadline_ms')::bigint,
                                       CASE WHEN v_night->>'action' = 'refuse' THEN 'started' ELSE 'scheduled' END);
  IF v_night->>'action' = 'refuse' THEN
    PERFORM transfer_refuse(v_first, v_night);
    v_waiting := jsonb_build_array(v_first) || recurring_after_run(v_first, 'refused', p_recurrence->'follow_ups');
  ELSE
    IF v_night->>'action' = 'charge' THEN
      UPDATE transfers SET night_evening = night_usage_charge(v_account_id, v_r.amount_cents, (p_recurrence->>'local_day')::date,
                                                              (p_recurrence->>'local_minute')::integer, p_recurrence->'rules')
        WHERE id = v_first;
    END IF;
    v_waiting := jsonb_build_array(v_first);
  END IF;
  v_response := recurring_transfer_json(v_id);
  UPDATE recurring_transfers SET first_response = v_response WHERE id = v_id;
  RETURN jsonb_build_object('outcome', 'created', 'recurring_transfer_id', v_id, 'response', v_response, 'waiting', v_waiting);
END $function$;
