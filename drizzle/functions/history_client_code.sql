-- Two views of a transfer (CONTRACT §2): the client's history[].reason is a short customer-safe
-- code derived from the transition itself (the states and the transfer's failure reason), never
-- the stored text. The stored reason, its actor and evidence (operator notes, anti-fraud rule
-- names) stay for /ops and the console. Derived, not stored: no writer can leak into it.
-- Inlined into its callers' plans: so no SET clause (PostgreSQL never inlines a function that
-- has one) and every call in it names pg_catalog (test/db/function-settings.test.ts).
CREATE OR REPLACE FUNCTION public.history_client_code(p_from text, p_to text, p_failure_reason text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT CASE
    WHEN p_from IS NULL THEN NULL
    WHEN p_to = 'started' AND p_from = 'scheduled' THEN 'scheduled_day_reached'
    WHEN p_to = 'canceled' THEN 'canceled'
    WHEN p_to = 'funds_reserved' AND p_from = 'needs_review' THEN 'review_cleared'
    WHEN p_to = 'funds_reserved' THEN 'funds_held'
    WHEN p_to = 'submitted' THEN 'sent_to_provider'
    WHEN p_to = 'needs_review' THEN 'under_review'
    WHEN p_to = 'completed' THEN 'paid'
    WHEN p_to = 'compensating' THEN p_failure_reason
    WHEN p_to = 'compensated' AND p_from = 'compensating' THEN 'funds_released'
    WHEN p_to = 'compensated' AND p_from = 'needs_review' THEN 'not_sent'
    WHEN p_to = 'compensated' THEN p_failure_reason
    ELSE NULL
  END
$function$;
