-- Moves a hold that is still held to its final status, once: answers the hold as it now is, or
-- a row of NULLs (id IS NULL) when it was not held; then hold_refusal says why. Settle and
-- release both start here.
CREATE OR REPLACE FUNCTION public.hold_resolve(p_hold_id uuid, p_status text)
 RETURNS holds
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
DECLARE v_hold holds%ROWTYPE;
BEGIN
  UPDATE holds SET status = p_status, resolved_at = now()
    WHERE id = p_hold_id AND status = 'held' RETURNING * INTO v_hold;
  RETURN v_hold;
END $function$;
