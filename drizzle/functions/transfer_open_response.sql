-- A transfer's first response (POST /v1/transfers), replayed verbatim for a repeated
-- Idempotency-Key: the resource as its opening transaction left it, which is the event of the
-- last hop that transaction recorded. Its hops share the transaction's time (the first hop's);
-- every later step is a later transaction. Derived, not copied onto the transfer's row: the
-- open writes it once, as that hop's event.
CREATE OR REPLACE FUNCTION public.transfer_open_response(t transfers)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
  SELECT h.data FROM transfer_history h
   WHERE h.transfer_id = t.id
     AND h.at = (SELECT f.at FROM transfer_history f WHERE f.transfer_id = t.id ORDER BY f.sequence LIMIT 1)
   ORDER BY h.sequence DESC LIMIT 1
$function$;
