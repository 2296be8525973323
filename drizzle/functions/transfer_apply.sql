-- Apply one decided change, guarded by the state it was decided from, in the same transaction as
-- its ledger effect and its history, so one saga step is one round trip. p_change carries:
-- path (text[] as json), ledger (settle|release|null), failure_reason, failure_code,
-- end_to_end_id, checks_made, next_check_at_ms, last_sent_at_ms, sent (bool), reason, actor,
-- evidence. p_call (nullable) is the provider call that justified it, kept as evidence (on the
-- step's last history row, or on a row of its own when the step records no hop).
-- Each hop of the path is written as a transfer_history row, whose CHECK allows only the
-- transitions of src/saga/states.ts: an impossible path raises check_violation and nothing of
-- the step is kept.
CREATE OR REPLACE FUNCTION public.transfer_apply(p_id uuid, p_expected text, p_change jsonb, p_call jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
DECLARE
  v_t transfers%ROWTYPE;
  v_path text[] := ARRAY(SELECT jsonb_array_elements_text(coalesce(p_change->'path', '[]'::jsonb)));
  v_to text;
  v_from text := p_expected;
  v_ledger text := p_change->>'ledger';
  v_result text;
  v_hop integer;
  v_call jsonb;
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
    -- The decision lost (another step got there first), but the provider call happened: keep
    -- it as evidence, and a resend of an order already submitted (a reply lost after the first
    -- `submitted` write) counts as a send, so the not-found grace runs from the last one.
    IF p_call IS NOT NULL THEN
      INSERT INTO provider_calls_apart (transfer_id, kind, outcome, http_status, detail, duration_ms)
        VALUES (p_id, p_call->>'kind', p_call->>'outcome', (p_call->>'http_status')::int,
                p_call->'detail', (p_call->>'duration_ms')::int);
      IF p_call->>'kind' = 'send' AND v_t.state = 'submitted' THEN
        UPDATE transfers SET send_attempts = send_attempts + 1,
            last_sent_at = greatest(last_sent_at, ms_to_timestamptz((p_change->>'last_sent_at_ms')::bigint))
          WHERE id = p_id RETURNING * INTO v_t;
      END IF;
    END IF;
    RETURN jsonb_build_object('outcome', 'state_mismatch', 'saga', transfer_saga_json(v_t));
  END IF;

  -- An operator's approval of a transfer held before sending starts its deadline again: the
  -- time spent in review must not count against the provider.
  IF p_expected = 'needs_review' AND v_to = 'funds_reserved' THEN
    UPDATE transfers SET deadline_at = now() + (deadline_at - created_at)
      WHERE id = p_id RETURNING * INTO v_t;
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
    -- A compensated transfer gives its amount back to the day (and night) it consumed, once,
    -- and to the day's new-device cap when it came from an unregistered device.
    IF v_result = 'released' AND v_t.limit_day IS NOT NULL THEN
      UPDATE limit_usage SET used_cents = used_cents - v_t.amount_cents
        WHERE account_id = v_t.account_id AND starts_on = v_t.limit_day
          AND (period = 'day' OR (period = 'new_device' AND v_t.device_registered IS FALSE));
    END IF;
    IF v_result = 'released' THEN PERFORM night_usage_give_back(p_id); END IF;
  END IF;

  -- The provider call that justified the step is kept on its last hop's row; a step that
  -- records no hop keeps it on a row of its own.
  FOR v_hop IN 1 .. coalesce(array_length(v_path, 1), 0) LOOP
    v_call := CASE WHEN v_hop = array_length(v_path, 1) THEN p_call END;
    INSERT INTO transfer_history (transfer_id, from_state, to_state, reason, actor, evidence,
                                  call_kind, call_outcome, call_http_status, call_detail, call_duration_ms)
      VALUES (p_id, v_from, v_path[v_hop], p_change->>'reason', p_change->>'actor', p_change->'evidence',
              v_call->>'kind', v_call->>'outcome', (v_call->>'http_status')::int, v_call->'detail',
              (v_call->>'duration_ms')::int);
    v_from := v_path[v_hop];
  END LOOP;

  IF p_call IS NOT NULL AND coalesce(array_length(v_path, 1), 0) = 0 THEN
    INSERT INTO provider_calls_apart (transfer_id, kind, outcome, http_status, detail, duration_ms)
      VALUES (p_id, p_call->>'kind', p_call->>'outcome', (p_call->>'http_status')::int,
              p_call->'detail', (p_call->>'duration_ms')::int);
  END IF;
  RETURN jsonb_build_object('outcome', 'applied', 'saga', transfer_saga_json(v_t));
END $function$;
