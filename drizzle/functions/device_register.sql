-- Registers a device for an account (CONTRACT §2 "Devices"). The client asks (p_actor NULL): a
-- new device is registered p_delay_ms after p_now, and one already there, pending or registered,
-- stays as it is. An operator (p_actor, an Access email or `ops-token`) registers at once: a
-- new device is effective at p_now, a pending one becomes effective now and takes the name, and
-- whatever changed is audited as `device_registered` in the same transaction.
-- The account row is locked first, so concurrent requests create one row, at most p_max devices
-- exist per account, and a transfer's hold never sees a registration half made.
-- Answers { outcome: created | updated | unchanged | account_not_found | too_many, device }.
CREATE OR REPLACE FUNCTION public.device_register(p_account_id text, p_device_id text, p_name text, p_now timestamp with time zone, p_delay_ms bigint, p_actor text, p_max integer)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
DECLARE
  v_d devices%ROWTYPE;
  v_before jsonb;
  v_outcome text := 'unchanged';
BEGIN
  PERFORM 1 FROM accounts WHERE id = p_account_id AND kind = 'customer' FOR UPDATE;
  IF NOT FOUND THEN RETURN jsonb_build_object('outcome', 'account_not_found'); END IF;
  SELECT * INTO v_d FROM devices WHERE account_id = p_account_id AND device_id = p_device_id;
  IF NOT FOUND THEN
    IF (SELECT count(*) FROM devices WHERE account_id = p_account_id) >= p_max THEN
      RETURN jsonb_build_object('outcome', 'too_many');
    END IF;
    INSERT INTO devices (account_id, device_id, name, effective_at, registered_by)
      VALUES (p_account_id, p_device_id, p_name,
              CASE WHEN p_actor IS NULL THEN p_now + p_delay_ms * interval '1 millisecond' ELSE p_now END,
              coalesce(p_actor, 'client'))
      RETURNING * INTO v_d;
    v_outcome := 'created';
  ELSIF p_actor IS NOT NULL AND (v_d.effective_at > p_now OR v_d.name <> p_name) THEN
    v_before := device_json(v_d, p_now);
    UPDATE devices SET effective_at = least(effective_at, p_now), name = p_name, registered_by = p_actor
      WHERE account_id = p_account_id AND device_id = p_device_id
      RETURNING * INTO v_d;
    v_outcome := 'updated';
  END IF;
  IF p_actor IS NOT NULL AND v_outcome <> 'unchanged' THEN
    INSERT INTO operator_actions (actor, action, account_id, details)
      VALUES (p_actor, 'device_registered', p_account_id,
              jsonb_build_object('device_id', p_device_id, 'name', v_d.name, 'effective_at', rfc3339(v_d.effective_at),
                                 'before', v_before));
  END IF;
  RETURN jsonb_build_object('outcome', v_outcome, 'device', device_json(v_d, p_now));
END $function$;
