// Reading and setting an account's Pix limits; each is one round trip. The instant is passed
// in: it decides the São Paulo day and night, and which pending increases are in force.

import type { RuleSettings } from "../config/rule-settings.ts";
import type { Queryable } from "../db/queryable.ts";
import type { JsonObject } from "../json.ts";
import { saoPauloClock } from "../lib/sao-paulo-clock.ts";

/** An operator's limits for an account; null means "use the default". */
export interface AccountLimitsInput {
  perTransferCents: number | null;
  dailyCents: number | null;
  nightPerTransferCents: number | null;
  nightTotalCents: number | null;
  /** HH:MM, São Paulo time, from 18:00 to 23:59. */
  nightStartsAt: string | null;
}

export async function limitsFor(db: Queryable, accountId: string, nowMs: number, defaults: RuleSettings): Promise<JsonObject | null> {
  const clock = saoPauloClock(nowMs);
  const { rows } = await db.query<{ limits: JsonObject | null }>(
    "SELECT account_limits_json($1, $2, $3, ms_to_timestamptz($4), $5::jsonb) AS limits",
    [accountId, clock.day, clock.minuteOfDay, nowMs, JSON.stringify(defaults)],
  );
  return rows[0]?.limits ?? null;
}

/**
 * Sets the account's limits (absent fields go back to the defaults): decreases at once,
 * increases 24 h after `nowMs` (ops_set_account_limits.sql); audited as `actor`'s in the same
 * transaction. Answers the limits as GET /v1/limits shows them, with `pending`; null when no such
 * account.
 */
export async function setLimits(
  db: Queryable,
  accountId: string,
  input: AccountLimitsInput,
  nowMs: number,
  defaults: RuleSettings,
  actor: string,
): Promise<JsonObject | null> {
  const clock = saoPauloClock(nowMs);
  const requested = {
    per_transfer_cents: input.perTransferCents,
    daily_cents: input.dailyCents,
    night_per_transfer_cents: input.nightPerTransferCents,
    night_total_cents: input.nightTotalCents,
    night_starts_at: input.nightStartsAt,
  };
  const { rows } = await db.query<{ limits: JsonObject | null }>(
    "SELECT ops_set_account_limits($1, $2::jsonb, $3, $4, ms_to_timestamptz($5), $6::jsonb, $7) AS limits",
    [accountId, JSON.stringify(requested), clock.day, clock.minuteOfDay, nowMs, JSON.stringify(defaults), actor],
  );
  return rows[0]?.limits ?? null;
}
