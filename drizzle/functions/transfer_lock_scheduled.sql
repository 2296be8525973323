-- Locks a transfer that must still be `scheduled` (its owner's cancel, its run on the day): the
-- row stays locked until the caller's transaction ends, so a cancel and a run cannot cross. The
-- wait is bounded (lock_timeout), as in every function that locks rows.
-- Answers NULL when it is scheduled; otherwise the answer the caller returns as it is:
-- not_found, or p_refusal with the record as it is.
CREATE OR REPLACE FUNCTION public.transfer_lock_scheduled(p_id uuid, p_refusal text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
DECLARE
  v_t transfers%ROWTYPE;
BEGIN
  SELECT * INTO v_t FROM transfers WHERE id = p_id FOR UPDATE;
  IF NOT FOUND THEN RETURN jsonb_build_object('outcome', 'not_found'); END IF;
  IF v_t.state <> 'scheduled' THEN RETURN jsonb_build_object('outcome', p_refusal, 'saga', transfer_saga_json(v_t)); END IF;
  RETURN NULL;
END $function$;
