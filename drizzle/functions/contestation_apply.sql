-- Every later change of a contestation: guarded by the state it was decided from, under the
-- transfer's row lock (then the contestation's), so its contestation.updated event takes the
-- transfer's next sequence in the same transaction (the outbox, CONTRACT §6). A change of state
-- or reference is an event; the object's own bookkeeping (next_check_at, checks_made) is not.
-- p_change: any of state, psp_ref, submitted_at, decided_at, deadline_alerted_at (business time,
-- RFC 3339), next_check_at, refund_watch_until (wall clock; null clears), checks_made,
-- and audit { actor, action, note } for an operator's step (operator_actions, same transaction).
-- Results: { outcome: applied | state_mismatch | not_found, state }.
CREATE OR REPLACE FUNCTION public.contestation_apply(p_id uuid, p_expected_state text, p_change jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
DECLARE
  v_c contestations%ROWTYPE;
  v_after contestations%ROWTYPE;
BEGIN
  SELECT * INTO v_c FROM contestations WHERE id = p_id;
  IF NOT FOUND THEN RETURN jsonb_build_object('outcome', 'not_found'); END IF;
  PERFORM 1 FROM transfers WHERE id = v_c.transfer_id FOR UPDATE;
  SELECT * INTO v_c FROM contestations WHERE id = p_id FOR UPDATE;
  IF v_c.state <> p_expected_state THEN
    RETURN jsonb_build_object('outcome', 'state_mismatch', 'state', v_c.state);
  END IF;
  UPDATE contestations SET
    state = coalesce(p_change->>'state', state),
    psp_ref = CASE WHEN p_change ? 'psp_ref' THEN p_change->>'psp_ref' ELSE psp_ref END,
    submitted_at = CASE WHEN p_change ? 'submitted_at' THEN (p_change->>'submitted_at')::timestamptz ELSE submitted_at END,
    decided_at = CASE WHEN p_change ? 'decided_at' THEN (p_change->>'decided_at')::timestamptz ELSE decided_at END,
    next_check_at = CASE WHEN p_change ? 'next_check_at' THEN (p_change->>'next_check_at')::timestamptz ELSE next_check_at END,
    refund_watch_until = CASE WHEN p_change ? 'refund_watch_until' THEN (p_change->>'refund_watch_until')::timestamptz
                              ELSE refund_watch_until END,
    checks_made = coalesce((p_change->>'checks_made')::integer, checks_made),
    deadline_alerted_at = CASE WHEN p_change ? 'deadline_alerted_at' THEN (p_change->>'deadline_alerted_at')::timestamptz
                               ELSE deadline_alerted_at END,
    updated_at = now()
  WHERE id = p_id RETURNING * INTO v_after;
  IF v_after.state <> v_c.state OR v_after.psp_ref IS DISTINCT FROM v_c.psp_ref THEN
    PERFORM transfer_event_insert(v_c.transfer_id, 'contestation.updated', NULL, now(), contestation_json(p_id));
  END IF;
  IF p_change ? 'audit' THEN
    INSERT INTO operator_actions (actor, action, account_id, transfer_id, details)
      VALUES (p_change->'audit'->>'actor', p_change->'audit'->>'action', v_c.account_id, v_c.transfer_id,
              jsonb_build_object('contestation_id', p_id, 'from', v_c.state, 'to', v_after.state,
                                 'psp_ref', v_after.psp_ref, 'note', p_change->'audit'->>'note'));
  END IF;
  RETURN jsonb_build_object('outcome', 'applied', 'state', v_after.state);
END $function$;
