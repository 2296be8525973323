-- Create the transfer, apply the Pix rules, attempt the hold (transfer_reserve): one
-- transaction. A repeated Idempotency-Key finds the first transfer (after it commits, under concurrency) before the
-- account is locked, so a replay never waits behind the account's other transfers.
-- The account row is locked first (in the same order by every opener, with a lock timeout), so the
-- daily sum, the velocity count and the hold are decided together and cannot be raced. The local
-- (São Paulo) day and minute come from the caller's clock, so tests can drive them.
-- p_transfer is one record, its fields named (src/transfers/store.ts builds it, TransferOpenRecord):
-- id, account_id, amount_cents, pix_key, pix_key_type, description, idempotency_key, fingerprint,
-- deadline_ms, local_day, local_minute, rules, br_code, scheduled_for, run_at_ms, test_clock,
-- device_id; every one present,
-- null where it may be, so a field misnamed on either side fails here instead of reading as null.
-- rules carries the defaults: per_transfer_cents, daily_cents, night_per_transfer_cents,
-- night_total_cents, velocity_max_per_10_min, new_key_review_above_cents; and now_ms, the
-- request's instant, by which an operator's pending limit increases are judged.
-- br_code is null for a transfer to a key, else the pasted code: { text, kind, merchant_name,
-- merchant_city } (a dynamic code's key and amount are what the provider resolved, before this).
-- scheduled_for (with run_at_ms, its first run's slot) schedules it instead: it is written
-- `scheduled`, its next check at that slot, with nothing held and no rule checked but the night
-- rules when it is asked for inside the night window (night_schedule_verdict): refused, it is
-- opened `started` and ends like a transfer refused on the spot; allowed, it charges that night.
-- Before those, refused (too_many_scheduled, nothing written) when the account has
-- MAX_PENDING_SCHEDULED waiting.
-- test_clock (the sandbox on, not scheduled): local_day, local_minute and now_ms are the wall
-- clock's, and business time (docs/clock.md) is the test clock's offset added here, in this
-- statement, so that opening a transfer costs no round trip more than it does in production.
-- device_id: the client token's device with DEVICE_RULES on (the new-device cap judges it), else null.
CREATE OR REPLACE FUNCTION public.transfer_open(p_transfer jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
 SET lock_timeout TO '5s'
AS $function$
DECLARE
  v_id uuid := (p_transfer->>'id')::uuid;
  v_account_id text := p_transfer->>'account_id';
  v_amount_cents bigint := (p_transfer->>'amount_cents')::bigint;
  v_pix_key text := p_transfer->>'pix_key';
  v_pix_key_type text := p_transfer->>'pix_key_type';
  v_description text := p_transfer->>'description';
  v_idempotency_key text := p_transfer->>'idempotency_key';
  v_fingerprint text := p_transfer->>'fingerprint';
  v_deadline_ms bigint := (p_transfer->>'deadline_ms')::bigint;
  v_local_day date := (p_transfer->>'local_day')::date;
  v_local_minute integer := (p_transfer->>'local_minute')::integer;
  v_rules jsonb := p_transfer->'rules';
  v_br_code jsonb := NULLIF(p_transfer->'br_code', 'null'::jsonb);
  v_scheduled_for date := (p_transfer->>'scheduled_for')::date;
  v_run_at_ms bigint := (p_transfer->>'run_at_ms')::bigint;
  v_test_clock boolean := (p_transfer->>'test_clock')::boolean;
  v_business_now timestamptz;
  v_device_id text := p_transfer->>'device_id';
  v_inserted uuid;
  v_existing transfers%ROWTYPE;
  v_state text := CASE WHEN v_scheduled_for IS NULL THEN 'started' ELSE 'scheduled' END;
  v_night jsonb;
  v_available_cents bigint;
  v_hold text;
  v_now timestamptz;
  v_trusted boolean;
  -- NULL: no device rule applies (DEVICE_RULES off, or no device on the transfer).
  v_unregistered boolean;
BEGIN
  IF NOT p_transfer ?& ARRAY['id', 'account_id', 'amount_cents', 'pix_key', 'pix_key_type', 'description', 'idempotency_key',
                             'fingerprint', 'deadline_ms', 'local_day', 'local_minute', 'rules', 'br_code', 'scheduled_for',
                             'run_at_ms', 'test_clock', 'device_id'] THEN
    RAISE EXCEPTION 'transfer_open: the record lacks a field: %', p_transfer;
  END IF;
  -- The key first, under a lock of its own: one opener per (account, key) at a time, so a
  -- replay that arrives while the first request is open waits for that request alone. The
  -- first may itself wait up to 5 s for the account below, hence the longer bound here.
  -- Account ids never contain ':', so the pair is unambiguous; a hash collision only
  -- serialises two unrelated keys.
  SET LOCAL lock_timeout = '10s';
  PERFORM pg_advisory_xact_lock(hashtext('transfer_open'), hashtext(v_account_id || ':' || v_idempotency_key));
  -- A finished request is answered from its first response (its opening hop's event) without
  -- the account's lock: a replay never queues behind the account's other transfers.
  SELECT * INTO v_existing FROM transfers
    WHERE account_id = v_account_id AND idempotency_key = v_idempotency_key;
  IF FOUND THEN
    IF v_existing.request_fingerprint <> v_fingerprint THEN
      RETURN jsonb_build_object('outcome', 'key_reused', 'transfer_id', v_existing.id);
    END IF;
    RETURN jsonb_build_object('outcome', 'replayed', 'transfer_id', v_existing.id, 'response', transfer_open_response(v_existing));
  END IF;

  -- A lock wait means another opener for this account is inside its own short transaction;
  -- waiting longer than this is a fault, reported as such (the client may retry).
  SET LOCAL lock_timeout = '5s';
  SELECT balance_cents - held_cents INTO v_available_cents FROM accounts
    WHERE id = v_account_id AND kind = 'customer' FOR UPDATE;
  IF NOT FOUND THEN RETURN jsonb_build_object('outcome', 'account_not_found'); END IF;
  IF v_state = 'scheduled' THEN
    IF scheduled_cap_reached(v_account_id, v_rules) THEN
      RETURN jsonb_build_object('outcome', 'too_many_scheduled');
    END IF;
    v_night := night_schedule_verdict(v_account_id, v_amount_cents, v_pix_key, v_pix_key_type, v_local_day, v_local_minute, v_rules);
    IF v_night->>'action' = 'refuse' THEN v_state := 'started'; END IF;
  END IF;

  -- Sent at once with the sandbox's test clock on: business time (docs/clock.md) is the wall
  -- clock's instant plus the clock's offset, added here, in this statement.
  IF v_state = 'started' AND v_test_clock THEN
    v_business_now := ms_to_timestamptz((v_rules->>'now_ms')::bigint) + test_clock_offset();
    v_local_day := (v_business_now AT TIME ZONE 'America/Sao_Paulo')::date;
    v_local_minute := extract(hour FROM v_business_now AT TIME ZONE 'America/Sao_Paulo')::integer * 60
                      + extract(minute FROM v_business_now AT TIME ZONE 'America/Sao_Paulo')::integer;
    v_rules := v_rules || jsonb_build_object('now_ms', epoch_ms(v_business_now));
  END IF;

  -- The common case, written once: a transfer sent at once that the rules let through and the
  -- balance covers is inserted already funds_reserved, with its two hops, rather than inserted
  -- `started` and then updated (a row version and its index entries fewer). Decided as
  -- transfer_reserve decides (trusted recipients and the device cap included), under the same
  -- account lock; every other transfer takes the general path below. The key is free (checked
  -- under its lock above), so the INSERT cannot conflict; if it ever did, it raises and nothing
  -- of the open, hold included, is kept.
  IF v_state = 'started' THEN
    v_now := ms_to_timestamptz((v_rules->>'now_ms')::bigint);
    v_trusted := trusted_recipient_active(v_account_id, v_pix_key, v_pix_key_type, v_now);
    v_unregistered := device_unregistered(v_account_id, v_device_id, v_rules, v_now);
  END IF;
  IF v_state = 'started' AND v_available_cents >= v_amount_cents
     AND coalesce(pix_limit_verdict(v_account_id, v_amount_cents, v_local_day, v_local_minute,
                                    v_rules || jsonb_build_object('daytime_rules', v_trusted)),
                  device_rule_verdict(v_account_id, v_device_id, v_amount_cents, v_local_day, v_unregistered, v_rules),
                  fraud_rule_velocity(v_id, v_account_id, v_rules)) IS NULL THEN
    v_hold := ledger_hold(v_id, v_account_id, v_amount_cents);
    IF v_hold <> 'held' THEN
      RAISE EXCEPTION 'saga invariant violated: hold for new transfer % answered %', v_id, v_hold;
    END IF;
    INSERT INTO transfers (id, account_id, amount_cents, pix_key, pix_key_type, description, state,
                           idempotency_key, request_fingerprint, deadline_at, next_check_at, limit_day, night_evening,
                           br_code, br_code_kind, merchant_name, merchant_city, device_id, device_registered)
      VALUES (v_id, v_account_id, v_amount_cents, v_pix_key, v_pix_key_type, v_description, 'funds_reserved',
              v_idempotency_key, v_fingerprint, now() + v_deadline_ms * interval '1 millisecond', now(), v_local_day,
              transfer_reserve_usage(v_account_id, v_amount_cents, v_local_day, v_local_minute, v_rules, NOT v_trusted, v_unregistered),
              v_br_code->>'text', v_br_code->>'kind', v_br_code->>'merchant_name', v_br_code->>'merchant_city',
              v_device_id, NOT v_unregistered);
    -- Both hops in one statement (one executor start, the table's CHECKs compiled once); each
    -- row's trigger sees the rows before it in the same statement, so the second hop's event
    -- follows the first's.
    INSERT INTO transfer_history (transfer_id, from_state, to_state, reason, actor)
      VALUES (v_id, NULL, 'started', NULL, 'saga'), (v_id, 'started', 'funds_reserved', 'funds held', 'saga');
    IF NOT v_trusted THEN PERFORM transfer_review_new_key(v_id, v_rules); END IF;
    RETURN transfer_open_created(v_id);
  END IF;

  INSERT INTO transfers (id, account_id, amount_cents, pix_key, pix_key_type, description, state,
                         idempotency_key, request_fingerprint, deadline_at, scheduled_for, next_check_at,
                         br_code, br_code_kind, merchant_name, merchant_city, device_id)
    VALUES (v_id, v_account_id, v_amount_cents, v_pix_key, v_pix_key_type, v_description, v_state,
            v_idempotency_key, v_fingerprint, now() + v_deadline_ms * interval '1 millisecond',
            v_scheduled_for, ms_to_timestamptz(v_run_at_ms),
            v_br_code->>'text', v_br_code->>'kind', v_br_code->>'merchant_name', v_br_code->>'merchant_city', v_device_id)
    ON CONFLICT (account_id, idempotency_key) DO NOTHING RETURNING id INTO v_inserted;
  IF v_inserted IS NULL THEN
    SELECT * INTO v_existing FROM transfers
      WHERE account_id = v_account_id AND idempotency_key = v_idempotency_key;
    IF v_existing.request_fingerprint <> v_fingerprint THEN
      RETURN jsonb_build_object('outcome', 'key_reused', 'transfer_id', v_existing.id);
    END IF;
    RETURN jsonb_build_object('outcome', 'replayed', 'transfer_id', v_existing.id, 'response', transfer_open_response(v_existing));
  END IF;
  INSERT INTO transfer_history (transfer_id, from_state, to_state, actor) VALUES (v_id, NULL, v_state, 'saga');
  -- A scheduled transfer holds nothing and checks no other rule until its day (transfer_run_scheduled).
  IF v_night->>'action' = 'refuse' THEN
    PERFORM transfer_refuse(v_id, v_night);
  ELSIF v_state = 'started' THEN
    PERFORM transfer_reserve(v_id, v_local_day, v_local_minute, v_rules, NULL);
  ELSIF v_night->>'action' = 'charge' THEN
    UPDATE transfers SET night_evening = night_usage_charge(v_account_id, v_amount_cents, v_local_day, v_local_minute, v_rules)
      WHERE id = v_id;
  END IF;

  RETURN transfer_open_created(v_id);
END $function$;
