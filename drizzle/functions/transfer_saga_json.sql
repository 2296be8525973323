-- What the saga object needs to decide its next step (times as epoch milliseconds).
CREATE OR REPLACE FUNCTION public.transfer_saga_json(t transfers)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
AS $function$
  SELECT jsonb_build_object(
    'id', t.id, 'account_id', t.account_id, 'amount_cents', t.amount_cents,
    'pix_key', t.pix_key, 'pix_key_type', t.pix_key_type, 'description', t.description,
    'state', t.state, 'end_to_end_id', t.end_to_end_id, 'checks_made', t.checks_made,
    'send_attempts', t.send_attempts,
    'last_sent_at_ms', epoch_ms(t.last_sent_at), 'next_check_at_ms', epoch_ms(t.next_check_at),
    'deadline_at_ms', epoch_ms(t.deadline_at), 'created_at_ms', epoch_ms(t.created_at))
$function$;
