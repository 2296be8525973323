-- Anti-fraud: too many transfers from one account in ten minutes are refused (a verdict, as
-- pix_limit_verdict). A transfer counts from the moment it starts: one sent at once from its
-- request, a scheduled one from its run on the day (ran_at), never from its request, so neither
-- a batch of schedules blocks the account today nor do their runs escape the count. A run is
-- stamped with the business instant it ran at (transfer_reserve), so its ten minutes are counted
-- in business time, to p_settings.now_ms (the decision's business instant, docs/clock.md).
CREATE OR REPLACE FUNCTION public.fraud_rule_velocity(p_transfer_id uuid, p_account_id text, p_settings jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
DECLARE
  v_max int := (p_settings->>'velocity_max_per_10_min')::int;
  v_now timestamptz := ms_to_timestamptz((p_settings->>'now_ms')::bigint);
  v_recent int;
BEGIN
  IF v_now IS NULL THEN RAISE EXCEPTION 'fraud_rule_velocity: no now_ms in %', p_settings; END IF;
  SELECT count(*) INTO v_recent FROM (
    SELECT 1 FROM transfers
     WHERE account_id = p_account_id AND id <> p_transfer_id AND scheduled_for IS NULL
       AND created_at > now() - interval '10 minutes'
    UNION ALL
    SELECT 1 FROM transfers
     WHERE account_id = p_account_id AND id <> p_transfer_id AND ran_at > v_now - interval '10 minutes'
    LIMIT v_max) recent;
  IF v_recent >= v_max THEN
    RETURN jsonb_build_object('action', 'refuse', 'rule', 'velocity', 'max_per_10_min', v_max);
  END IF;
  RETURN NULL;
END $function$;
