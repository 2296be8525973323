-- Opens one occurrence of a recurrence (or an occurrence's evening retry) as an ordinary
-- scheduled transfer: nothing held, no rule checked, its next check at its run's slot, like a
-- one-off schedule from transfer_open. Inside the caller's transaction, the recurrence locked.
-- p_slot: { id, run_at_ms } (src/transfers/recurring-follow-ups.ts computes the slot from the
-- date and the id, as for every schedule). Its Idempotency-Key is made up from the recurrence,
-- so the account's key space has one row per occurrence; its fingerprint is no request's hash,
-- so a client that ever sent that key would be told it was reused, never handed this transfer.
-- p_state: `scheduled`, or `started` for a first occurrence the night rules refuse when the
-- recurrence is requested (recurring_transfer_open refuses it next, as transfer_open does a
-- one-off schedule). It carries the recurrence's device, so the new-device cap judges its run as
-- it judges a one-off schedule requested from that device (transfer_reserve).
-- Answers the new transfer's id.
CREATE OR REPLACE FUNCTION public.recurring_occurrence_open(p_recurrence recurring_transfers, p_occurrence integer, p_retry_of uuid, p_scheduled_for date, p_slot jsonb, p_deadline_ms bigint, p_state text)
 RETURNS uuid
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
DECLARE
  v_id uuid := (p_slot->>'id')::uuid;
BEGIN
  INSERT INTO transfers (id, account_id, amount_cents, pix_key, pix_key_type, description, state,
                         idempotency_key, request_fingerprint, deadline_at, scheduled_for, next_check_at,
                         recurring_transfer_id, occurrence, retry_of, device_id)
    VALUES (v_id, p_recurrence.account_id, p_recurrence.amount_cents, p_recurrence.pix_key, p_recurrence.pix_key_type,
            p_recurrence.description, p_state,
            'recurring:' || p_recurrence.id || ':' || p_occurrence || CASE WHEN p_retry_of IS NULL THEN '' ELSE ':retry' END,
            'recurring', now() + p_deadline_ms * interval '1 millisecond', p_scheduled_for,
            ms_to_timestamptz((p_slot->>'run_at_ms')::bigint),
            p_recurrence.id, p_occurrence, p_retry_of, p_recurrence.device_id);
  INSERT INTO transfer_history (transfer_id, from_state, to_state, actor) VALUES (v_id, NULL, p_state, 'saga');
  RETURN v_id;
END $function$;
