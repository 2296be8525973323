-- Reserves a directory lookup's worst-case cost before the provider is asked, so concurrent
-- lookups can never spend more than the bucket holds: under the bucket row's lock, a lookup needs
-- at least one token (a hit's cost) and takes min(p_reserve_max, what is there); the caller then
-- settles the real cost (lookup_budget_settle). A new account's bucket starts full. The
-- bucket: p_tokens_max tokens, one more every p_token_ms; p_now is the caller's clock.
CREATE OR REPLACE FUNCTION public.lookup_budget_reserve(p_account_id text, p_now timestamp with time zone, p_tokens_max integer, p_token_ms integer, p_reserve_max integer)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
DECLARE
  v_full_since timestamptz := p_now - (p_tokens_max::bigint * p_token_ms) * interval '1 millisecond';
  v_empty_at timestamptz;
  v_available_ms bigint;
  v_reserved int;
BEGIN
  PERFORM 1 FROM accounts WHERE id = p_account_id AND kind = 'customer';
  IF NOT FOUND THEN RETURN jsonb_build_object('outcome', 'account_not_found'); END IF;
  INSERT INTO lookup_budgets (account_id, empty_at) VALUES (p_account_id, v_full_since) ON CONFLICT (account_id) DO NOTHING;
  -- A full bucket stops filling: nothing saved beyond p_tokens_max.
  SELECT greatest(empty_at, v_full_since) INTO v_empty_at FROM lookup_budgets WHERE account_id = p_account_id FOR UPDATE;
  v_available_ms := epoch_ms(p_now) - epoch_ms(v_empty_at);
  IF v_available_ms < p_token_ms THEN
    RETURN jsonb_build_object('outcome', 'refused', 'retry_after_ms', p_token_ms - v_available_ms);
  END IF;
  v_reserved := least(p_reserve_max::bigint, v_available_ms / p_token_ms);
  UPDATE lookup_budgets SET empty_at = v_empty_at + (v_reserved::bigint * p_token_ms) * interval '1 millisecond'
    WHERE account_id = p_account_id;
  RETURN jsonb_build_object('outcome', 'reserved', 'reserved_tokens', v_reserved);
END $function$;
