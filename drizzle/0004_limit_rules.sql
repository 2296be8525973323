-- Pix rules before the hold (limits and anti-fraud), enforced inside the opening transaction:
-- the account row is locked first (in the same order by every opener, with a lock timeout), so
-- the daily sum, the velocity count and the hold are decided together and cannot be raced.
-- The local (São Paulo) day and minute come from the caller's clock, so tests can drive them.

-- Each rule answers a verdict: NULL to allow, or {action: refuse|review, rule, ...evidence}.
-- Rules read facts only; they write nothing and call nothing outside the database.
CREATE FUNCTION pix_limit_verdict(p_account_id text, p_amount_cents bigint, p_local_day date,
                                  p_local_minute int, p_defaults jsonb) RETURNS jsonb
LANGUAGE plpgsql STABLE AS $$
DECLARE
  v_limits account_limits%ROWTYPE;
  v_per_transfer bigint;
  v_daily bigint;
  v_night_cap bigint;
  v_night_start_minute int;
  v_used bigint;
BEGIN
  SELECT * INTO v_limits FROM account_limits WHERE account_id = p_account_id;
  v_per_transfer := coalesce(v_limits.per_transfer_cents, (p_defaults->>'per_transfer_cents')::bigint);
  v_daily := coalesce(v_limits.daily_cents, (p_defaults->>'daily_cents')::bigint);
  v_night_cap := coalesce(v_limits.night_per_transfer_cents, (p_defaults->>'night_per_transfer_cents')::bigint);
  v_night_start_minute := coalesce(extract(hour FROM v_limits.night_starts_at)::int * 60
                                   + extract(minute FROM v_limits.night_starts_at)::int, 20 * 60);
  IF p_amount_cents > v_per_transfer THEN
    RETURN jsonb_build_object('action', 'refuse', 'rule', 'per_transfer', 'limit_cents', v_per_transfer);
  END IF;
  -- Night runs from the account's start (20:00 by default) to 06:00 the next morning.
  IF (p_local_minute >= v_night_start_minute OR p_local_minute < 6 * 60) AND p_amount_cents > v_night_cap THEN
    RETURN jsonb_build_object('action', 'refuse', 'rule', 'nighttime', 'limit_cents', v_night_cap);
  END IF;
  SELECT used_cents INTO v_used FROM daily_usage WHERE account_id = p_account_id AND day = p_local_day;
  IF coalesce(v_used, 0) + p_amount_cents > v_daily THEN
    RETURN jsonb_build_object('action', 'refuse', 'rule', 'daily', 'limit_cents', v_daily, 'used_cents', coalesce(v_used, 0));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint

CREATE FUNCTION fraud_rule_velocity(p_transfer_id uuid, p_account_id text, p_settings jsonb) RETURNS jsonb
LANGUAGE plpgsql STABLE AS $$
DECLARE
  v_max int := (p_settings->>'velocity_max_per_10_min')::int;
  v_recent int;
BEGIN
  SELECT count(*) INTO v_recent FROM (
    SELECT 1 FROM transfers
     WHERE account_id = p_account_id AND id <> p_transfer_id AND created_at > now() - interval '10 minutes'
     LIMIT v_max) recent;
  IF v_recent >= v_max THEN
    RETURN jsonb_build_object('action', 'refuse', 'rule', 'velocity', 'max_per_10_min', v_max);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint

-- A first payment to a key this account has never paid before, above the threshold, waits
-- for a person (with the hold taken) before anything reaches the provider.
CREATE FUNCTION fraud_rule_new_key(p_transfer_id uuid, p_account_id text, p_amount_cents bigint,
                                   p_pix_key text, p_pix_key_type text, p_settings jsonb) RETURNS jsonb
LANGUAGE plpgsql STABLE AS $$
DECLARE v_threshold bigint := (p_settings->>'new_key_review_above_cents')::bigint;
BEGIN
  IF p_amount_cents <= v_threshold THEN RETURN NULL; END IF;
  PERFORM 1 FROM transfers
   WHERE account_id = p_account_id AND pix_key = p_pix_key AND pix_key_type = p_pix_key_type
     AND state = 'completed' AND id <> p_transfer_id
   LIMIT 1;
  IF FOUND THEN RETURN NULL; END IF;
  RETURN jsonb_build_object('action', 'review', 'rule', 'new_key_review', 'threshold_cents', v_threshold);
END $$;
--> statement-breakpoint

DROP FUNCTION transfer_open(uuid, text, bigint, text, text, text, text, text, bigint);
--> statement-breakpoint

-- Create the transfer, apply the Pix rules, attempt the hold: one transaction. A repeated
-- Idempotency-Key finds the first transfer (after it commits, under concurrency).
-- p_rules carries the defaults: per_transfer_cents, daily_cents, night_per_transfer_cents,
-- velocity_max_per_10_min, new_key_review_above_cents.
CREATE FUNCTION transfer_open(
  p_id uuid, p_account_id text, p_amount_cents bigint, p_pix_key text, p_pix_key_type text,
  p_description text, p_idempotency_key text, p_fingerprint text, p_deadline_ms bigint,
  p_local_day date, p_local_minute int, p_rules jsonb
) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_inserted uuid;
  v_existing transfers%ROWTYPE;
  v_verdict jsonb;
  v_hold text;
  v_t transfers%ROWTYPE;
  v_response jsonb;
BEGIN
  -- A lock wait means another opener for this account is inside its own short transaction;
  -- waiting longer than this is a fault, reported as such (the client may retry).
  SET LOCAL lock_timeout = '5s';
  PERFORM 1 FROM accounts WHERE id = p_account_id AND kind = 'customer' FOR UPDATE;
  IF NOT FOUND THEN RETURN jsonb_build_object('outcome', 'account_not_found'); END IF;
  INSERT INTO transfers (id, account_id, amount_cents, pix_key, pix_key_type, description, state,
                         idempotency_key, request_fingerprint, deadline_at)
    VALUES (p_id, p_account_id, p_amount_cents, p_pix_key, p_pix_key_type, p_description, 'started',
            p_idempotency_key, p_fingerprint, now() + p_deadline_ms * interval '1 millisecond')
    ON CONFLICT (account_id, idempotency_key) DO NOTHING RETURNING id INTO v_inserted;
  IF v_inserted IS NULL THEN
    SELECT * INTO v_existing FROM transfers
      WHERE account_id = p_account_id AND idempotency_key = p_idempotency_key;
    IF v_existing.request_fingerprint <> p_fingerprint THEN
      RETURN jsonb_build_object('outcome', 'key_reused', 'transfer_id', v_existing.id);
    END IF;
    RETURN jsonb_build_object('outcome', 'replayed', 'transfer_id', v_existing.id, 'response', v_existing.first_response);
  END IF;
  INSERT INTO transfer_history (transfer_id, from_state, to_state, actor) VALUES (p_id, NULL, 'started', 'saga');

  v_verdict := coalesce(
    pix_limit_verdict(p_account_id, p_amount_cents, p_local_day, p_local_minute, p_rules),
    fraud_rule_velocity(p_id, p_account_id, p_rules));
  IF v_verdict IS NOT NULL THEN
    UPDATE transfers SET state = 'compensated', failure_reason = 'limit_exceeded',
                         failure_code = v_verdict->>'rule', updated_at = now() WHERE id = p_id;
    INSERT INTO transfer_history (transfer_id, from_state, to_state, reason, actor, evidence)
      VALUES (p_id, 'started', 'compensated', 'limit exceeded: ' || (v_verdict->>'rule'), 'saga', v_verdict);
  ELSE
    v_hold := ledger_hold(p_id, p_account_id, p_amount_cents);
    IF v_hold = 'held' THEN
      INSERT INTO daily_usage (account_id, day, used_cents) VALUES (p_account_id, p_local_day, p_amount_cents)
        ON CONFLICT (account_id, day) DO UPDATE SET used_cents = daily_usage.used_cents + EXCLUDED.used_cents;
      UPDATE transfers SET state = 'funds_reserved', next_check_at = now(), limit_day = p_local_day, updated_at = now()
        WHERE id = p_id;
      INSERT INTO transfer_history (transfer_id, from_state, to_state, reason, actor)
        VALUES (p_id, 'started', 'funds_reserved', 'funds held', 'saga');
      v_verdict := fraud_rule_new_key(p_id, p_account_id, p_amount_cents, p_pix_key, p_pix_key_type, p_rules);
      IF v_verdict IS NOT NULL THEN
        UPDATE transfers SET state = 'needs_review', next_check_at = NULL, updated_at = now() WHERE id = p_id;
        INSERT INTO transfer_history (transfer_id, from_state, to_state, reason, actor, evidence)
          VALUES (p_id, 'funds_reserved', 'needs_review', 'anti-fraud review before sending: ' || (v_verdict->>'rule'), 'saga', v_verdict);
      END IF;
    ELSIF v_hold = 'insufficient_funds' THEN
      UPDATE transfers SET state = 'compensated', failure_reason = 'insufficient_funds', updated_at = now() WHERE id = p_id;
      INSERT INTO transfer_history (transfer_id, from_state, to_state, reason, actor)
        VALUES (p_id, 'started', 'compensated', 'insufficient funds', 'saga');
    ELSE
      RAISE EXCEPTION 'saga invariant violated: hold for new transfer % answered %', p_id, v_hold;
    END IF;
  END IF;

  v_response := transfer_json(p_id);
  UPDATE transfers SET first_response = v_response WHERE id = p_id RETURNING * INTO v_t;
  RETURN jsonb_build_object('outcome', 'created', 'transfer_id', p_id, 'response', v_response,
                            'saga', transfer_saga_json(v_t));
END $$;
--> statement-breakpoint

-- The caller's effective limits and what is left of today (São Paulo day).
CREATE FUNCTION account_limits_json(p_account_id text, p_local_day date, p_defaults jsonb) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'account_id', a.id,
    'per_transfer_cents', coalesce(l.per_transfer_cents, (p_defaults->>'per_transfer_cents')::bigint),
    'daily_cents', coalesce(l.daily_cents, (p_defaults->>'daily_cents')::bigint),
    'night_per_transfer_cents', coalesce(l.night_per_transfer_cents, (p_defaults->>'night_per_transfer_cents')::bigint),
    'night_starts_at', to_char(coalesce(l.night_starts_at, '20:00'::time), 'HH24:MI'),
    'night_ends_at', '06:00',
    'day', p_local_day,
    'used_today_cents', coalesce(u.used_cents, 0),
    'remaining_today_cents', greatest(coalesce(l.daily_cents, (p_defaults->>'daily_cents')::bigint) - coalesce(u.used_cents, 0), 0),
    'velocity_max_per_10_min', (p_defaults->>'velocity_max_per_10_min')::int,
    'new_key_review_above_cents', (p_defaults->>'new_key_review_above_cents')::bigint)
  FROM accounts a
  LEFT JOIN account_limits l ON l.account_id = a.id
  LEFT JOIN daily_usage u ON u.account_id = a.id AND u.day = p_local_day
  WHERE a.id = p_account_id AND a.kind = 'customer'
$$;
--> statement-breakpoint

CREATE OR REPLACE FUNCTION transfer_apply(p_id uuid, p_expected text, p_change jsonb, p_call jsonb)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_t transfers%ROWTYPE;
  v_path text[] := ARRAY(SELECT jsonb_array_elements_text(coalesce(p_change->'path', '[]'::jsonb)));
  v_to text;
  v_from text := p_expected;
  v_ledger text := p_change->>'ledger';
  v_result text;
  v_state text;
BEGIN
  v_to := coalesce(v_path[array_length(v_path, 1)], p_expected);
  UPDATE transfers SET
      state = v_to,
      failure_reason = coalesce(p_change->>'failure_reason', failure_reason),
      failure_code = coalesce(p_change->>'failure_code', failure_code),
      end_to_end_id = coalesce(p_change->>'end_to_end_id', end_to_end_id),
      checks_made = (p_change->>'checks_made')::int,
      next_check_at = ms_to_timestamptz((p_change->>'next_check_at_ms')::bigint),
      last_sent_at = ms_to_timestamptz((p_change->>'last_sent_at_ms')::bigint),
      send_attempts = send_attempts + CASE WHEN (p_change->>'sent')::boolean THEN 1 ELSE 0 END,
      updated_at = now()
    WHERE id = p_id AND state = p_expected
    RETURNING * INTO v_t;
  IF v_t.id IS NULL THEN
    SELECT * INTO v_t FROM transfers WHERE id = p_id;
    IF v_t.id IS NULL THEN RETURN jsonb_build_object('outcome', 'not_found'); END IF;
    RETURN jsonb_build_object('outcome', 'state_mismatch', 'saga', transfer_saga_json(v_t));
  END IF;

  IF v_ledger = 'settle' THEN
    v_result := ledger_settle(p_id, 'saga:' || p_id || ':settle');
    IF v_result NOT IN ('settled', 'already_settled') THEN
      RAISE EXCEPTION 'saga invariant violated: settle of % answered %', p_id, v_result;
    END IF;
  ELSIF v_ledger = 'release' THEN
    v_result := ledger_release(p_id);
    IF v_result NOT IN ('released', 'already_released') THEN
      RAISE EXCEPTION 'saga invariant violated: release of % answered %', p_id, v_result;
    END IF;
    -- A compensated transfer gives its amount back to the day it consumed, once.
    IF v_result = 'released' AND v_t.limit_day IS NOT NULL THEN
      UPDATE daily_usage SET used_cents = used_cents - v_t.amount_cents
        WHERE account_id = v_t.account_id AND day = v_t.limit_day;
    END IF;
  END IF;

  FOREACH v_state IN ARRAY v_path LOOP
    INSERT INTO transfer_history (transfer_id, from_state, to_state, reason, actor, evidence)
      VALUES (p_id, v_from, v_state, p_change->>'reason', p_change->>'actor', p_change->'evidence');
    v_from := v_state;
  END LOOP;

  IF p_call IS NOT NULL THEN
    INSERT INTO provider_calls (transfer_id, kind, outcome, http_status, detail, duration_ms)
      VALUES (p_id, p_call->>'kind', p_call->>'outcome', (p_call->>'http_status')::int,
              p_call->'detail', (p_call->>'duration_ms')::int);
  END IF;
  RETURN jsonb_build_object('outcome', 'applied', 'saga', transfer_saga_json(v_t));
END $$;
