-- Timestamps as the saga object reads them: epoch milliseconds. STABLE, as extract is.
-- Inlined into its callers' plans: so no SET clause (PostgreSQL never inlines a function that
-- has one) and every call in it names pg_catalog (test/db/function-settings.test.ts).
CREATE OR REPLACE FUNCTION public.epoch_ms(ts timestamp with time zone)
 RETURNS bigint
 LANGUAGE sql
 STABLE
AS $function$
  SELECT (pg_catalog.extract('epoch', ts) * 1000)::bigint
$function$;
