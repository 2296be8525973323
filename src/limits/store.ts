// Reading and setting an account's Pix limits; each is one round trip.
import type { Queryable } from "../db/queryable.ts";
import type { JsonObject } from "../json.ts";
import type { RuleSettings } from "./defaults.ts";

/** An operator's limits for an account; null means "use the default". */
export interface AccountLimitsInput {
  perTransferCents: number | null;
  dailyCents: number | null;
  nightPerTransferCents: number | null;
  /** HH:MM, São Paulo time, from 18:00 to 23:59. */
  nightStartsAt: string | null;
}

export async function limitsFor(db: Queryable, accountId: string, localDay: string, defaults: RuleSettings): Promise<JsonObject | null> {
  const { rows } = await db.query<{ limits: JsonObject | null }>("SELECT account_limits_json($1, $2, $3::jsonb) AS limits", [
    accountId,
    localDay,
    JSON.stringify(defaults),
  ]);
  return rows[0]?.limits ?? null;
}

/**
 * Replaces the account's limits (absent fields go back to the defaults) and records the change,
 * old and new values, as `actor`'s in the same statement; null when no such account. Two round
 * trips: a data-modifying CTE's writes are invisible to its own SELECT.
 */
export async function setLimits(
  db: Queryable,
  accountId: string,
  input: AccountLimitsInput,
  localDay: string,
  defaults: RuleSettings,
  actor: string,
): Promise<JsonObject | null> {
  const { rows } = await db.query<{ account_id: string }>(
    `WITH old AS (
       SELECT per_transfer_cents, daily_cents, night_per_transfer_cents, to_char(night_starts_at, 'HH24:MI') AS night_starts_at
         FROM account_limits WHERE account_id = $1),
     changed AS (
       INSERT INTO account_limits (account_id, per_transfer_cents, daily_cents, night_per_transfer_cents, night_starts_at)
       SELECT id, $2, $3, $4, $5::time FROM accounts WHERE id = $1 AND kind = 'customer'
       ON CONFLICT (account_id) DO UPDATE SET
         per_transfer_cents = EXCLUDED.per_transfer_cents, daily_cents = EXCLUDED.daily_cents,
         night_per_transfer_cents = EXCLUDED.night_per_transfer_cents, night_starts_at = EXCLUDED.night_starts_at
       RETURNING account_id, per_transfer_cents, daily_cents, night_per_transfer_cents,
                 to_char(night_starts_at, 'HH24:MI') AS night_starts_at),
     audited AS (
       -- null values mean "the default"; no old row means every limit was the default.
       INSERT INTO operator_actions (actor, action, account_id, details)
       SELECT $6, 'limits_changed', c.account_id,
              jsonb_build_object('old', coalesce((SELECT to_jsonb(o) FROM old o),
                                                 '{"per_transfer_cents":null,"daily_cents":null,"night_per_transfer_cents":null,"night_starts_at":null}'::jsonb),
                                 'new', to_jsonb(c) - 'account_id')
         FROM changed c)
     SELECT account_id FROM changed`,
    [accountId, input.perTransferCents, input.dailyCents, input.nightPerTransferCents, input.nightStartsAt, actor],
  );
  if (rows.length === 0) return null;
  return limitsFor(db, accountId, localDay, defaults);
}
