-- The caller's limits in force at p_now, what is left of today (São Paulo day) and of the night
-- window (the current one, or tonight's when outside it), and the increases still waiting.
CREATE OR REPLACE FUNCTION public.account_limits_json(p_account_id text, p_local_day date, p_local_minute integer, p_now timestamp with time zone, p_defaults jsonb)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
  SELECT jsonb_build_object(
    'account_id', a.id,
    'per_transfer_cents', (r.l->>'per_transfer_cents')::bigint,
    'daily_cents', (r.l->>'daily_cents')::bigint,
    'night_per_transfer_cents', (r.l->>'night_per_transfer_cents')::bigint,
    'night_total_cents', (r.l->>'night_total_cents')::bigint,
    'night_starts_at', r.l->>'night_starts_at',
    'night_ends_at', '06:00',
    'day', p_local_day,
    'used_today_cents', coalesce(u.used_cents, 0),
    'remaining_today_cents', greatest((r.l->>'daily_cents')::bigint - coalesce(u.used_cents, 0), 0),
    'night_evening', n.evening,
    'used_tonight_cents', coalesce(nu.used_cents, 0),
    'remaining_tonight_cents', greatest((r.l->>'night_total_cents')::bigint - coalesce(nu.used_cents, 0), 0),
    'velocity_max_per_10_min', (p_defaults->>'velocity_max_per_10_min')::int,
    'new_key_review_above_cents', (p_defaults->>'new_key_review_above_cents')::bigint,
    'pending', coalesce(
      (SELECT jsonb_agg(
                CASE WHEN p.limit_name = 'night_starts_at'
                  THEN jsonb_build_object('limit', p.limit_name, 'value', coalesce(p.value #>> '{}', '20:00'), 'effective_at', rfc3339(p.effective_at))
                  ELSE jsonb_build_object('limit', p.limit_name,
                                          'value_cents', coalesce((p.value #>> '{}')::bigint, (p_defaults->>p.limit_name)::bigint),
                                          'effective_at', rfc3339(p.effective_at))
                END ORDER BY p.effective_at, p.limit_name)
         FROM account_limits_pending p WHERE p.account_id = a.id AND p.effective_at > p_now),
      '[]'::jsonb))
  FROM accounts a
  CROSS JOIN LATERAL (SELECT pix_limits_resolve(account_limits_in_force(a.id, p_now), p_defaults) AS l) r
  CROSS JOIN LATERAL (SELECT coalesce(pix_night_evening(p_local_day, p_local_minute, (r.l->>'night_start_minute')::int), p_local_day) AS evening) n
  LEFT JOIN limit_usage u ON u.account_id = a.id AND u.period = 'day' AND u.starts_on = p_local_day
  LEFT JOIN limit_usage nu ON nu.account_id = a.id AND nu.period = 'night' AND nu.starts_on = n.evening
  WHERE a.id = p_account_id AND a.kind = 'customer'
$function$;
