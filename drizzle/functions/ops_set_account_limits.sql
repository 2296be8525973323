-- An operator sets an account's limits (absent = the default; p_requested has every limit name,
-- null for the default). Each limit is compared with the value in force at p_now: a decrease
-- (or no change) is in force at once and drops a waiting increase of that limit; an increase
-- waits 24 h (an identical one already waiting keeps its time). A later night_starts_at shortens
-- the night window, so it loosens the rules: an increase too. The change is audited in the same
-- transaction: old and new values in force, and what waits. NULL when no such customer account.
CREATE OR REPLACE FUNCTION public.ops_set_account_limits(p_account_id text, p_requested jsonb, p_local_day date, p_local_minute integer, p_now timestamp with time zone, p_defaults jsonb, p_actor text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
DECLARE
  v_old jsonb;
  v_old_values jsonb;
  v_asked jsonb := pix_limits_resolve(p_requested, p_defaults);
  v_new jsonb;
  v_pending jsonb := '[]'::jsonb;
  v_name text;
  v_increase boolean;
  v_effective_at timestamptz;
BEGIN
  -- One change at a time per account, serialised with its transfers' openings.
  PERFORM 1 FROM accounts WHERE id = p_account_id AND kind = 'customer' FOR UPDATE;
  IF NOT FOUND THEN RETURN NULL; END IF;
  v_old := account_limits_in_force(p_account_id, p_now);
  v_old_values := pix_limits_resolve(v_old, p_defaults);
  v_new := v_old;
  FOREACH v_name IN ARRAY ARRAY['per_transfer_cents', 'daily_cents', 'night_per_transfer_cents', 'night_total_cents', 'night_starts_at'] LOOP
    IF v_name = 'night_starts_at' THEN
      v_increase := (v_asked->>'night_start_minute')::int > (v_old_values->>'night_start_minute')::int;
    ELSE
      v_increase := (v_asked->>v_name)::bigint > (v_old_values->>v_name)::bigint;
    END IF;
    IF v_increase THEN
      SELECT effective_at INTO v_effective_at FROM account_limits_pending
        WHERE account_id = p_account_id AND limit_name = v_name AND value = p_requested->v_name AND effective_at > p_now;
      v_pending := v_pending || jsonb_build_array(jsonb_build_object(
        'limit', v_name, 'value', p_requested->v_name,
        'effective_at', rfc3339(coalesce(v_effective_at, p_now + interval '24 hours'))));
    ELSE
      v_new := jsonb_set(v_new, ARRAY[v_name], coalesce(p_requested->v_name, 'null'::jsonb));
    END IF;
  END LOOP;

  INSERT INTO account_limits (account_id, per_transfer_cents, daily_cents, night_per_transfer_cents, night_total_cents, night_starts_at)
    VALUES (p_account_id, (v_new->>'per_transfer_cents')::bigint, (v_new->>'daily_cents')::bigint,
            (v_new->>'night_per_transfer_cents')::bigint, (v_new->>'night_total_cents')::bigint, (v_new->>'night_starts_at')::time)
    ON CONFLICT (account_id) DO UPDATE SET
      per_transfer_cents = EXCLUDED.per_transfer_cents, daily_cents = EXCLUDED.daily_cents,
      night_per_transfer_cents = EXCLUDED.night_per_transfer_cents, night_total_cents = EXCLUDED.night_total_cents,
      night_starts_at = EXCLUDED.night_starts_at;
  -- Every limit was decided again: what was waiting (or due, now in account_limits) is replaced.
  DELETE FROM account_limits_pending WHERE account_id = p_account_id;
  INSERT INTO account_limits_pending (account_id, limit_name, value, effective_at)
    SELECT p_account_id, e->>'limit', e->'value', (e->>'effective_at')::timestamptz FROM jsonb_array_elements(v_pending) e;

  -- null values mean "the default".
  INSERT INTO operator_actions (actor, action, account_id, details)
    VALUES (p_actor, 'limits_changed', p_account_id, jsonb_build_object('old', v_old, 'new', v_new, 'pending', v_pending));
  RETURN account_limits_json(p_account_id, p_local_day, p_local_minute, p_now, p_defaults);
END $function$;
