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
 * Replaces the account's limits (absent fields go back to the defaults); null when no such
 * account. Two round trips: a data-modifying CTE's writes are invisible to its own SELECT.
 */
export async function setLimits(
  db: Queryable,
  accountId: string,
  input: AccountLimitsInput,
  localDay: string,
  defaults: RuleSettings,
): Promise<JsonObject | null> {
  const { rows } = await db.query<{ account_id: string }>(
    `INSERT INTO account_limits (account_id, per_transfer_cents, daily_cents, night_per_transfer_cents, night_starts_at)
     SELECT id, $2, $3, $4, $5::time FROM accounts WHERE id = $1 AND kind = 'customer'
     ON CONFLICT (account_id) DO UPDATE SET
       per_transfer_cents = EXCLUDED.per_transfer_cents, daily_cents = EXCLUDED.daily_cents,
       night_per_transfer_cents = EXCLUDED.night_per_transfer_cents, night_starts_at = EXCLUDED.night_starts_at
     RETURNING account_id`,
    [accountId, input.perTransferCents, input.dailyCents, input.nightPerTransferCents, input.nightStartsAt],
  );
  if (rows.length === 0) return null;
  return limitsFor(db, accountId, localDay, defaults);
}
