-- Anti-fraud: too many transfers from one account in ten minutes are refused (a verdict, as
-- pix_limit_verdict).
CREATE OR REPLACE FUNCTION public.fraud_rule_velocity(p_transfer_id uuid, p_account_id text, p_settings jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
DECLARE
  v_max int := (p_settings->>'velocity_max_per_10_min')::int;
  v_recent int;
BEGIN
  SELECT count(*) INTO v_recent FROM (
    SELECT 1 FROM transfers
     WHERE account_id = p_account_id AND id <> p_transfer_id AND created_at > now() - interval '10 minutes'
     LIMIT v_max) recent;
  IF v_recent >= v_max THEN
    RETURN jsonb_build_object('action', 'refuse', 'rule', 'velocity', 'max_per_10_min', v_max);
  END IF;
  RETURN NULL;
END $function$;
