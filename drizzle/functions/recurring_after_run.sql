-- What a recurrence does when one of its occurrences ran on its day (p_outcome: what
-- transfer_reserve answered) or was canceled on its own (p_outcome 'canceled'), in that same
-- transaction, with the recurrence's row locked first by the caller:
-- - too little available at the run: one retry transfer the same evening (p_follow_ups.retry,
--   absent when its window has passed), whose own failure is final;
-- - the next occurrence opens `scheduled` (p_follow_ups.next, its number checked), so exactly
--   one waits at a time; after the last one the recurrence is `finished`.
-- A retry's run, a transfer of no recurrence, and a recurrence no longer active open nothing.
-- p_follow_ups: { deadline_ms, next: { occurrence, date, id, run_at_ms } | null,
-- retry: { id, run_at_ms } | null } (src/transfers/recurring-follow-ups.ts).
-- Answers the ids of the transfers it opened, for their objects to be woken.
CREATE OR REPLACE FUNCTION public.recurring_after_run(p_id uuid, p_outcome text, p_follow_ups jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
DECLARE
  v_t transfers%ROWTYPE;
  v_r recurring_transfers%ROWTYPE;
  v_next jsonb := NULLIF(p_follow_ups->'next', 'null'::jsonb);
  v_retry jsonb := NULLIF(p_follow_ups->'retry', 'null'::jsonb);
  v_deadline_ms bigint := (p_follow_ups->>'deadline_ms')::bigint;
  v_opened jsonb := '[]'::jsonb;
BEGIN
  SELECT * INTO v_t FROM transfers WHERE id = p_id;
  IF v_t.recurring_transfer_id IS NULL OR v_t.retry_of IS NOT NULL THEN RETURN v_opened; END IF;
  SELECT * INTO v_r FROM recurring_transfers WHERE id = v_t.recurring_transfer_id;
  IF v_r.state <> 'active' THEN RETURN v_opened; END IF;
  IF p_follow_ups IS NULL THEN
    RAISE EXCEPTION 'recurring_after_run: occurrence % of recurrence % ran without its follow-ups', v_t.occurrence, v_r.id;
  END IF;

  IF p_outcome = 'insufficient_funds' AND v_retry IS NOT NULL THEN
    v_opened := v_opened || to_jsonb(recurring_occurrence_open(v_r, v_t.occurrence, v_t.id, v_t.scheduled_for, v_retry, v_deadline_ms, 'scheduled'));
  END IF;

  IF v_t.occurrence >= v_r.occurrence_count THEN
    UPDATE recurring_transfers SET state = 'finished', updated_at = now() WHERE id = v_r.id;
    RETURN v_opened;
  END IF;
  IF v_next IS NULL OR (v_next->>'occurrence')::integer <> v_t.occurrence + 1 THEN
    RAISE EXCEPTION 'recurring_after_run: occurrence % of recurrence % needs occurrence % next, got %',
      v_t.occurrence, v_r.id, v_t.occurrence + 1, v_next;
  END IF;
  v_opened := v_opened || to_jsonb(recurring_occurrence_open(v_r, v_t.occurrence + 1, NULL, (v_next->>'date')::date, v_next, v_deadline_ms, 'scheduled'));
  UPDATE recurring_transfers SET updated_at = now() WHERE id = v_r.id;
  RETURN v_opened;
END $function$;
