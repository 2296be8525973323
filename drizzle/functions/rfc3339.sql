-- Timestamps as the API writes them (CONTRACT §2): UTC, milliseconds, a Z. STABLE, as to_char is.
-- Inlined into its callers' plans: so no SET clause (PostgreSQL never inlines a function that
-- has one) and every call in it names pg_catalog (test/db/function-settings.test.ts).
CREATE OR REPLACE FUNCTION public.rfc3339(ts timestamp with time zone)
 RETURNS text
 LANGUAGE sql
 STABLE
AS $function$
  SELECT pg_catalog.to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$function$;
