-- The owner's cancel of a scheduled transfer (POST /v1/transfers/:id/cancel): only while it is
-- `scheduled`, when nothing is held, so nothing but its state and history change, and a night
-- it charged when asked for at night gets its amount back. Under the row's lock, so it cannot
-- cross its run on the day. Answers canceled (with the resource),
-- not_scheduled (with the record as it is: 409) or not_found.
-- An occurrence of a recurrence is skipped: its recurrence is locked first (recurrence, transfer:
-- the order of its run) and the next occurrence opens now (recurring_after_run, p_follow_ups),
-- listed in `opened`.
CREATE OR REPLACE FUNCTION public.transfer_cancel(p_id uuid, p_follow_ups jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
DECLARE
  v_t transfers%ROWTYPE;
  v_refusal jsonb;
  v_opened jsonb;
BEGIN
  PERFORM 1 FROM recurring_transfers WHERE id = (SELECT recurring_transfer_id FROM transfers WHERE id = p_id) FOR UPDATE;
  v_refusal := transfer_lock_scheduled(p_id, 'not_scheduled');
  IF v_refusal IS NOT NULL THEN RETURN v_refusal; END IF;
  UPDATE transfers SET state = 'canceled', next_check_at = NULL, updated_at = now() WHERE id = p_id RETURNING * INTO v_t;
  INSERT INTO transfer_history (transfer_id, from_state, to_state, reason, actor)
    VALUES (p_id, 'scheduled', 'canceled', 'canceled by its owner', 'client');
  PERFORM night_usage_give_back(p_id);
  v_opened := recurring_after_run(p_id, 'canceled', p_follow_ups);
  RETURN jsonb_build_object('outcome', 'canceled', 'saga', transfer_saga_json(v_t), 'response', transfer_json(p_id), 'opened', v_opened);
END $function$;
