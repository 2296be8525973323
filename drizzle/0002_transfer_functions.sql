-- The saga record's writers. Every transition is one conditional UPDATE on the expected state,
-- in the same transaction as its ledger effect and its history, so one step is one round trip.

CREATE FUNCTION rfc3339(ts timestamptz) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;
--> statement-breakpoint
CREATE FUNCTION epoch_ms(ts timestamptz) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
  SELECT (extract(epoch FROM ts) * 1000)::bigint
$$;
--> statement-breakpoint
CREATE FUNCTION ms_to_timestamptz(ms bigint) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN ms IS NULL THEN NULL ELSE to_timestamp(ms / 1000.0) END
$$;
--> statement-breakpoint

-- The client-facing resource (CONTRACT §2): one renderer, used for reads and for the snapshot
-- that idempotent replays return.
CREATE FUNCTION transfer_json(p_id uuid) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', t.id, 'state', t.state, 'amount_cents', t.amount_cents,
    'pix_key', t.pix_key, 'pix_key_type', t.pix_key_type, 'description', t.description,
    'failure_reason', t.failure_reason, 'failure_code', t.failure_code,
    'end_to_end_id', t.end_to_end_id,
    'created_at', rfc3339(t.created_at), 'updated_at', rfc3339(t.updated_at),
    'history', coalesce((
      SELECT jsonb_agg(jsonb_build_object('state', h.to_state, 'at', rfc3339(h.at), 'reason', h.reason) ORDER BY h.id)
      FROM transfer_history h WHERE h.transfer_id = t.id), '[]'::jsonb))
  FROM transfers t WHERE t.id = p_id
$$;
--> statement-breakpoint

-- What the saga object needs to decide its next step (times as epoch milliseconds).
CREATE FUNCTION transfer_saga_json(t transfers) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', t.id, 'account_id', t.account_id, 'amount_cents', t.amount_cents,
    'pix_key', t.pix_key, 'pix_key_type', t.pix_key_type, 'description', t.description,
    'state', t.state, 'end_to_end_id', t.end_to_end_id, 'checks_made', t.checks_made,
    'send_attempts', t.send_attempts,
    'last_sent_at_ms', epoch_ms(t.last_sent_at), 'next_check_at_ms', epoch_ms(t.next_check_at),
    'deadline_at_ms', epoch_ms(t.deadline_at), 'created_at_ms', epoch_ms(t.created_at))
$$;
--> statement-breakpoint

-- Create the transfer and attempt the hold in one transaction. A repeated Idempotency-Key
-- finds the first transfer (after it commits, under concurrency) instead of creating another.
CREATE FUNCTION transfer_open(
  p_id uuid, p_account_id text, p_amount_cents bigint, p_pix_key text, p_pix_key_type text,
  p_description text, p_idempotency_key text, p_fingerprint text, p_deadline_ms bigint
) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_inserted uuid;
  v_existing transfers%ROWTYPE;
  v_hold text;
  v_t transfers%ROWTYPE;
  v_response jsonb;
BEGIN
  PERFORM 1 FROM accounts WHERE id = p_account_id AND kind = 'customer';
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

  v_hold := ledger_hold(p_id, p_account_id, p_amount_cents);
  IF v_hold = 'held' THEN
    UPDATE transfers SET state = 'funds_reserved', next_check_at = now(), updated_at = now() WHERE id = p_id;
    INSERT INTO transfer_history (transfer_id, from_state, to_state, reason, actor)
      VALUES (p_id, 'started', 'funds_reserved', 'funds held', 'saga');
  ELSIF v_hold = 'insufficient_funds' THEN
    UPDATE transfers SET state = 'compensated', failure_reason = 'insufficient_funds', updated_at = now() WHERE id = p_id;
    INSERT INTO transfer_history (transfer_id, from_state, to_state, reason, actor)
      VALUES (p_id, 'started', 'compensated', 'insufficient funds', 'saga');
  ELSE
    RAISE EXCEPTION 'saga invariant violated: hold for new transfer % answered %', p_id, v_hold;
  END IF;

  v_response := transfer_json(p_id);
  UPDATE transfers SET first_response = v_response WHERE id = p_id RETURNING * INTO v_t;
  RETURN jsonb_build_object('outcome', 'created', 'transfer_id', p_id, 'response', v_response,
                            'saga', transfer_saga_json(v_t));
END $$;
--> statement-breakpoint

-- Apply one decided change, guarded by the state it was decided from. p_change carries:
-- path (text[] as json), ledger (settle|release|null), failure_reason, failure_code,
-- end_to_end_id, checks_made, next_check_at_ms, last_sent_at_ms, sent (bool), reason, actor,
-- evidence. p_call (nullable) is the provider call that justified it, kept as evidence.
CREATE FUNCTION transfer_apply(p_id uuid, p_expected text, p_change jsonb, p_call jsonb)
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
