-- transfer_open's answer for a transfer it just created: its first response, which is the event
-- of the last hop just recorded, built once (transfer_history_as_event) and what a replay
-- answers too (transfer_open_response), so nothing more is written for it; and what the saga
-- object needs to run it.
CREATE OR REPLACE FUNCTION public.transfer_open_created(p_id uuid)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
 SET search_path TO 'public', 'pg_temp'
AS $function$
  SELECT jsonb_build_object('outcome', 'created', 'transfer_id', t.id, 'response', transfer_open_response(t),
                            'saga', transfer_saga_json(t))
    FROM transfers t WHERE t.id = p_id
$function$;
