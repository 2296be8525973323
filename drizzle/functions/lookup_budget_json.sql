-- An account's lookup budget at p_now, for operators: tokens left (whole; negative while a miss
-- is being repaid) and when the bucket is full again. A bucket never used is full.
CREATE OR REPLACE FUNCTION public.lookup_budget_json(p_account_id text, p_now timestamp with time zone, p_tokens_max integer, p_token_ms integer)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
  SELECT jsonb_build_object(
    'tokens', floor((epoch_ms(p_now) - epoch_ms(b.empty_at))::numeric / p_token_ms)::int,
    'tokens_max', p_tokens_max,
    'full_at', rfc3339(b.empty_at + (p_tokens_max::bigint * p_token_ms) * interval '1 millisecond'))
  FROM (SELECT greatest(
          coalesce((SELECT empty_at FROM lookup_budgets WHERE account_id = p_account_id), '-infinity'::timestamptz),
          p_now - (p_tokens_max::bigint * p_token_ms) * interval '1 millisecond') AS empty_at) b
$function$;
