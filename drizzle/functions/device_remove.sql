-- Removes an account's device at once (CONTRACT §2 "Devices"): its next transfer is capped
-- again, and registering it again waits again. By the client (p_actor NULL), or by an operator,
-- audited as `device_removed` with what the device was at p_now (business time; the client's
-- removal records nothing and passes NULL), in the same transaction.
-- Answers removed, not_found (no such device) or account_not_found.
CREATE OR REPLACE FUNCTION public.device_remove(p_account_id text, p_device_id text, p_now timestamp with time zone, p_actor text)
 RETURNS text
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
DECLARE
  v_d devices%ROWTYPE;
BEGIN
  DELETE FROM devices WHERE account_id = p_account_id AND device_id = p_device_id RETURNING * INTO v_d;
  IF NOT FOUND THEN
    RETURN CASE WHEN EXISTS (SELECT 1 FROM accounts WHERE id = p_account_id AND kind = 'customer')
                THEN 'not_found' ELSE 'account_not_found' END;
  END IF;
  IF p_actor IS NOT NULL THEN
    INSERT INTO operator_actions (actor, action, account_id, details)
      VALUES (p_actor, 'device_removed', p_account_id, device_json(v_d, p_now) - 'last_used_at');
  END IF;
  RETURN 'removed';
END $function$;
