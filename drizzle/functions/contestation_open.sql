-- A client contests a completed Pix (CONTRACT §2 "Contestations"): one transaction. A repeated
-- Idempotency-Key answers the first response (or key_reused), as transfer_open does, under a lock
-- of its own per (account, key), so concurrent repeats create one contestation. Then the
-- transfer's row is locked (the order every writer of a transfer uses), so the rules below, the
-- insert and the event's sequence are decided together: only the caller's transfer, `completed`
-- (its completion at most 80 days before now, both in business time), not wholly returned, with
-- no other contestation that is not final. A refusal writes nothing.
-- p: { id, account_id, transfer_id, idempotency_key, fingerprint, reason, details, now,
--      test_clock, ask_provider }. now (RFC 3339) is business time itself, or with test_clock
-- (the sandbox on) the wall clock, to which this statement adds the test clock's offset (as
-- transfer_open does: no round trip more); the completion's business time is then its wall
-- time plus the offset in force at that moment (test_clock_business_at), not today's.
-- ask_provider: the provider takes contestations, so its object forwards it at once
-- (next_check_at now, which the sweeper finds if the object never wakes). deadline_at = now + 11 days.
-- Results: created | replayed | key_reused | transfer_not_found | not_completed | window_closed |
-- wholly_returned | already_contested.
CREATE OR REPLACE FUNCTION public.contestation_open(p jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
DECLARE
  v_id uuid := (p->>'id')::uuid;
  v_account_id text := p->>'account_id';
  v_key text := p->>'idempotency_key';
  v_test_clock boolean := (p->>'test_clock')::boolean;
  v_now timestamptz := (p->>'now')::timestamptz;
  v_existing contestations%ROWTYPE;
  v_t transfers%ROWTYPE;
  v_completed_at timestamptz;
  v_response jsonb;
BEGIN
  IF NOT p ?& ARRAY['id', 'account_id', 'transfer_id', 'idempotency_key', 'fingerprint', 'reason', 'details', 'now',
                    'test_clock', 'ask_provider'] THEN
    RAISE EXCEPTION 'contestation_open: the record lacks a field: %', p;
  END IF;
  SET LOCAL lock_timeout = '10s';
  PERFORM pg_advisory_xact_lock(hashtext('contestation_open'), hashtext(v_account_id || ':' || v_key));
  SELECT * INTO v_existing FROM contestations WHERE account_id = v_account_id AND idempotency_key = v_key;
  IF FOUND THEN
    IF v_existing.request_fingerprint <> p->>'fingerprint' THEN
      RETURN jsonb_build_object('outcome', 'key_reused');
    END IF;
    RETURN jsonb_build_object('outcome', 'replayed', 'id', v_existing.id, 'transfer_id', v_existing.transfer_id,
                              'response', v_existing.first_response);
  END IF;
  SET LOCAL lock_timeout = '5s';
  SELECT * INTO v_t FROM transfers WHERE id = (p->>'transfer_id')::uuid AND account_id = v_account_id FOR UPDATE;
  IF NOT FOUND THEN RETURN jsonb_build_object('outcome', 'transfer_not_found'); END IF;
  IF v_t.state <> 'completed' THEN RETURN jsonb_build_object('outcome', 'not_completed', 'state', v_t.state); END IF;
  SELECT max(at) INTO v_completed_at FROM transfer_history WHERE transfer_id = v_t.id AND to_state = 'completed';
  IF v_test_clock THEN
    v_now := v_now + test_clock_offset();
    v_completed_at := test_clock_business_at(v_completed_at);
  END IF;
  IF v_completed_at IS NULL OR v_now > v_completed_at + interval '80 days' THEN
    RETURN jsonb_build_object('outcome', 'window_closed');
  END IF;
  IF v_t.returned_cents >= v_t.amount_cents THEN RETURN jsonb_build_object('outcome', 'wholly_returned'); END IF;
  IF EXISTS (SELECT 1 FROM contestations WHERE transfer_id = v_t.id AND state IN ('open', 'submitted')) THEN
    RETURN jsonb_build_object('outcome', 'already_contested');
  END IF;

  INSERT INTO contestations (id, transfer_id, account_id, idempotency_key, request_fingerprint, first_response, state,
                             reason, details, created_at, deadline_at, fraud_cents_before, next_check_at)
    VALUES (v_id, v_t.id, v_account_id, v_key, p->>'fingerprint', '{}'::jsonb, 'open', p->>'reason', p->>'details',
            v_now, v_now + interval '11 days', contestation_fraud_cents(v_t.id),
            CASE WHEN (p->>'ask_provider')::boolean THEN now() END);
  v_response := contestation_json(v_id);
  UPDATE contestations SET first_response = v_response WHERE id = v_id;
  PERFORM transfer_event_insert(v_t.id, 'contestation.updated', NULL, now(), v_response);
  RETURN jsonb_build_object('outcome', 'created', 'id', v_id, 'transfer_id', v_t.id, 'response', v_response);
END $function$;
