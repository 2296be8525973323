-- Records one delivery attempt of an event and its consequence, decided by the caller
-- (src/events/retry.ts): delivered (a 2xx), retry at p_next_attempt_at_ms, or parked. Guarded by
-- the attempt count the caller read, so two deliverers racing on one event record one outcome
-- each but move the event once. The event is a history row (a hop) or one of the transfer's
-- other events; only its delivery columns change. Answers the event's delivery state.
CREATE OR REPLACE FUNCTION public.transfer_event_attempted(p_event_id text, p_attempts_before integer, p_http_status integer, p_duration_ms integer, p_error text, p_outcome text, p_next_attempt_at_ms bigint)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
DECLARE
  v_delivered_at timestamptz := CASE WHEN p_outcome = 'delivered' THEN now() END;
  v_parked_at timestamptz := CASE WHEN p_outcome = 'parked' THEN now() END;
  v_next_attempt_at timestamptz := CASE WHEN p_outcome = 'retry' THEN ms_to_timestamptz(p_next_attempt_at_ms) END;
  v_moved boolean;
BEGIN
  INSERT INTO transfer_event_attempts (event_id, http_status, duration_ms, error)
    VALUES (p_event_id, p_http_status, p_duration_ms, p_error);
  UPDATE transfer_history SET attempts = attempts + 1, delivered_at = v_delivered_at, parked_at = v_parked_at,
                              next_attempt_at = v_next_attempt_at
    WHERE event_id = p_event_id AND attempts = p_attempts_before AND delivered_at IS NULL AND parked_at IS NULL;
  v_moved := FOUND;
  IF NOT v_moved THEN
    UPDATE transfer_other_events SET attempts = attempts + 1, delivered_at = v_delivered_at, parked_at = v_parked_at,
                                     next_attempt_at = v_next_attempt_at
      WHERE event_id = p_event_id AND attempts = p_attempts_before AND delivered_at IS NULL AND parked_at IS NULL;
    v_moved := FOUND;
  END IF;
  RETURN jsonb_build_object('outcome', CASE WHEN v_moved THEN 'recorded' ELSE 'already_moved' END);
END $function$;
