-- The caller's effective limits and what is left of today (São Paulo day).
CREATE OR REPLACE FUNCTION public.account_limits_json(p_account_id text, p_local_day date, p_defaults jsonb)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
AS $function$
  SELECT jsonb_build_object(
    'account_id', a.id,
    'per_transfer_cents', coalesce(l.per_transfer_cents, (p_defaults->>'per_transfer_cents')::bigint),
    'daily_cents', coalesce(l.daily_cents, (p_defaults->>'daily_cents')::bigint),
    'night_per_transfer_cents', coalesce(l.night_per_transfer_cents, (p_defaults->>'night_per_transfer_cents')::bigint),
    'night_starts_at', to_char(coalesce(l.night_starts_at, '20:00'::time), 'HH24:MI'),
    'night_ends_at', '06:00',
    'day', p_local_day,
    'used_today_cents', coalesce(u.used_cents, 0),
    'remaining_today_cents', greatest(coalesce(l.daily_cents, (p_defaults->>'daily_cents')::bigint) - coalesce(u.used_cents, 0), 0),
    'velocity_max_per_10_min', (p_defaults->>'velocity_max_per_10_min')::int,
    'new_key_review_above_cents', (p_defaults->>'new_key_review_above_cents')::bigint)
  FROM accounts a
  LEFT JOIN account_limits l ON l.account_id = a.id
  LEFT JOIN daily_usage u ON u.account_id = a.id AND u.day = p_local_day
  WHERE a.id = p_account_id AND a.kind = 'customer'
$function$;
