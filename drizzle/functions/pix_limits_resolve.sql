-- Limits as numbers: an account's own values (null = the default) over the configured defaults
-- (p_defaults: the rule settings), plus the night window's start as a minute of the day.
CREATE OR REPLACE FUNCTION public.pix_limits_resolve(p_own jsonb, p_defaults jsonb)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
  SELECT jsonb_build_object(
    'per_transfer_cents', coalesce((p_own->>'per_transfer_cents')::bigint, (p_defaults->>'per_transfer_cents')::bigint),
    'daily_cents', coalesce((p_own->>'daily_cents')::bigint, (p_defaults->>'daily_cents')::bigint),
    'night_per_transfer_cents', coalesce((p_own->>'night_per_transfer_cents')::bigint, (p_defaults->>'night_per_transfer_cents')::bigint),
    'night_total_cents', coalesce((p_own->>'night_total_cents')::bigint, (p_defaults->>'night_total_cents')::bigint),
    'night_starts_at', s.starts_at,
    'night_start_minute', split_part(s.starts_at, ':', 1)::int * 60 + split_part(s.starts_at, ':', 2)::int)
  FROM (SELECT coalesce(p_own->>'night_starts_at', '20:00') AS starts_at) s
$function$;
