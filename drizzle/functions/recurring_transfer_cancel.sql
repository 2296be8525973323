-- The owner's cancel of a recurring transfer (POST /v1/recurring-transfers/:id/cancel): only
-- while `active`. The recurrence is locked first, then each of its transfers still waiting (the
-- next occurrence, an evening retry) is canceled through transfer_cancel, so nothing more runs:
-- the order and the guards of an occurrence's own run, which therefore either ran before this
-- (and is no longer waiting) or finds its transfer canceled. Another account's recurrence is
-- not_found. Answers canceled (the resource, and the ids of the transfers canceled, whose
-- objects announce it), not_active (409, with the resource) or not_found.
CREATE OR REPLACE FUNCTION public.recurring_transfer_cancel(p_id uuid, p_account_id text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
DECLARE
  v_r recurring_transfers%ROWTYPE;
  v_waiting uuid;
  v_canceled jsonb := '[]'::jsonb;
BEGIN
  SELECT * INTO v_r FROM recurring_transfers WHERE id = p_id AND account_id = p_account_id FOR UPDATE;
  IF NOT FOUND THEN RETURN jsonb_build_object('outcome', 'not_found'); END IF;
  IF v_r.state <> 'active' THEN
    RETURN jsonb_build_object('outcome', 'not_active', 'state', v_r.state, 'response', recurring_transfer_json(p_id));
  END IF;
  -- Canceled first, so transfer_cancel opens no next occurrence for the ones it cancels.
  UPDATE recurring_transfers SET state = 'canceled', updated_at = now() WHERE id = p_id;
  FOR v_waiting IN SELECT id FROM transfers WHERE recurring_transfer_id = p_id AND state = 'scheduled' ORDER BY id LOOP
    IF transfer_cancel(v_waiting, NULL)->>'outcome' <> 'canceled' THEN
      RAISE EXCEPTION 'recurring_transfer_cancel: transfer % of recurrence % could not be canceled', v_waiting, p_id;
    END IF;
    v_canceled := v_canceled || to_jsonb(v_waiting);
  END LOOP;
  RETURN jsonb_build_object('outcome', 'canceled', 'response', recurring_transfer_json(p_id), 'canceled', v_canceled);
END $function$;
