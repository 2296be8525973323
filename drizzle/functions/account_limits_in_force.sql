-- An account's own limits in force at p_now: its stored row with every pending increase whose
-- time has come laid over it (a pending row is not moved into account_limits until the next
-- change, so reads judge it by the clock they are given). Null values mean "the default".
CREATE OR REPLACE FUNCTION public.account_limits_in_force(p_account_id text, p_now timestamp with time zone)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
  SELECT coalesce(
    (SELECT jsonb_build_object(
              'per_transfer_cents', l.per_transfer_cents,
              'daily_cents', l.daily_cents,
              'night_per_transfer_cents', l.night_per_transfer_cents,
              'night_total_cents', l.night_total_cents,
              'night_starts_at', to_char(l.night_starts_at, 'HH24:MI'))
       FROM account_limits l WHERE l.account_id = p_account_id),
    '{"per_transfer_cents":null,"daily_cents":null,"night_per_transfer_cents":null,"night_total_cents":null,"night_starts_at":null}'::jsonb)
  || coalesce(
    (SELECT jsonb_object_agg(p.limit_name, p.value)
       FROM account_limits_pending p WHERE p.account_id = p_account_id AND p.effective_at <= p_now),
    '{}'::jsonb)
$function$;
