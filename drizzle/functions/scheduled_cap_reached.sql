-- Whether an account already has MAX_PENDING_SCHEDULED transfers waiting (`scheduled`: one-off
-- schedules, recurring occurrences and their evening retries alike), so a new schedule is
-- refused. The caller holds the account's row lock, so two requests cannot both see room for one.
-- p_rules carries pending_scheduled_max (src/config/rule-settings.ts).
CREATE OR REPLACE FUNCTION public.scheduled_cap_reached(p_account_id text, p_rules jsonb)
 RETURNS boolean
 LANGUAGE sql
 STABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
  SELECT count(*) >= (p_rules->>'pending_scheduled_max')::integer
    FROM transfers WHERE account_id = p_account_id AND state = 'scheduled'
$function$;
