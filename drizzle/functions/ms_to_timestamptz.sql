-- Epoch milliseconds from the saga object back to a timestamp; NULL stays NULL.
-- Inlined into its callers' plans: so no SET clause (PostgreSQL never inlines a function that
-- has one) and every call in it names pg_catalog (test/db/function-settings.test.ts).
CREATE OR REPLACE FUNCTION public.ms_to_timestamptz(ms bigint)
 RETURNS timestamp with time zone
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT CASE WHEN ms IS NULL THEN NULL ELSE pg_catalog.to_timestamp(ms / 1000.0) END
$function$;
