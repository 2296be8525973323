-- What the saga object needs to decide its next step (times as epoch milliseconds). A completed
-- transfer also carries when it completed and the returns already recorded (its watch for
-- returns); other states skip those reads. `br_code` is the code to pay for a dynamic one only
-- (a static code is paid to its key). `recurrence` is what an occurrence's run needs to open the
-- next one (null for a transfer of no recurrence).
-- Always the generic plan: with the row's values bound, the planner folds those CASEs and drops
-- the reads they guard, so every custom plan looks cheaper than the generic one and the plan
-- cache would plan it anew at each call (three per transfer, about a tenth of PostgreSQL's CPU
-- per transfer); the generic plan skips the same reads when it runs.
CREATE OR REPLACE FUNCTION public.transfer_saga_json(t transfers)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
 SET search_path TO 'public', 'pg_temp'
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
  SELECT jsonb_build_object(
    'id', t.id, 'account_id', t.account_id, 'amount_cents', t.amount_cents,
    'pix_key', t.pix_key, 'pix_key_type', t.pix_key_type, 'description', t.description,
    'state', t.state, 'end_to_end_id', t.end_to_end_id, 'checks_made', t.checks_made,
    'send_attempts', t.send_attempts,
    'last_sent_at_ms', epoch_ms(t.last_sent_at), 'next_check_at_ms', epoch_ms(t.next_check_at),
    'deadline_at_ms', epoch_ms(t.deadline_at), 'created_at_ms', epoch_ms(t.created_at),
    'returned_cents', t.returned_cents,
    'br_code', CASE WHEN t.br_code_kind = 'dynamic' THEN t.br_code END,
    'scheduled_for', to_char(t.scheduled_for, 'YYYY-MM-DD'), 'short_runs', t.short_runs,
    'recurrence', CASE WHEN t.recurring_transfer_id IS NOT NULL THEN
      (SELECT jsonb_build_object('recurring_transfer_id', r.id, 'frequency', r.frequency,
                                 'first_date', to_char(r.first_date, 'YYYY-MM-DD'), 'count', r.occurrence_count,
                                 'occurrence', t.occurrence, 'retry_of', t.retry_of)
         FROM recurring_transfers r WHERE r.id = t.recurring_transfer_id) END,
    'completed_at_ms', CASE WHEN t.state = 'completed' THEN
      (SELECT epoch_ms(max(h.at)) FROM transfer_history h WHERE h.transfer_id = t.id AND h.to_state = 'completed') END,
    'return_ids', CASE WHEN t.state = 'completed' THEN
      (SELECT coalesce(jsonb_agg(r.id ORDER BY r.id), '[]'::jsonb) FROM transfer_returns r WHERE r.transfer_id = t.id)
      ELSE '[]'::jsonb END)
$function$;
