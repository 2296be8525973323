-- A transfer in `started` refused by a Pix rule (p_verdict: {action: refuse, rule, ...evidence})
-- ends `compensated` with limit_exceeded before anything is held or sent; a night a schedule
-- charged when it was asked for gets its amount back (night_usage_give_back). Shared by
-- transfer_reserve (the rules before the hold) and transfer_open (a schedule asked for at
-- night), inside the caller's transaction.
CREATE OR REPLACE FUNCTION public.transfer_refuse(p_id uuid, p_verdict jsonb)
 RETURNS void
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
BEGIN
  UPDATE transfers SET state = 'compensated', failure_reason = 'limit_exceeded', next_check_at = NULL,
                       failure_code = p_verdict->>'rule', updated_at = now() WHERE id = p_id;
  INSERT INTO transfer_history (transfer_id, from_state, to_state, reason, actor, evidence)
    VALUES (p_id, 'started', 'compensated', 'limit exceeded: ' || (p_verdict->>'rule'), 'saga', p_verdict);
  PERFORM night_usage_give_back(p_id);
END $function$;
