// The Pix rules with a driven clock: transfers opened through the saga object at a chosen
// instant (the route uses Date.now()), and limits set and read at a chosen instant.
import { env } from "cloudflare:test";
import type { Pool } from "@neondatabase/serverless";
import { expect } from "vitest";
import { type RuleSettings, readRuleSettings } from "../../src/config/rule-settings.ts";
import { readSagaTimings } from "../../src/config/saga-timings.ts";
import { clientLimitsSchema } from "../../src/contract/schemas.ts";
import { limitsInputOf, setLimitsBody } from "../../src/http/limits.ts";
import type { PixKeyType } from "../../src/lib/ids.ts";
import { localClockFields } from "../../src/lib/sao-paulo-clock.ts";
import { limitsFor, setLimits } from "../../src/limits/store.ts";
import { scheduledRunAtMs } from "../../src/saga/schedule.ts";
import type { StartResult } from "../../src/saga-runtime/rpc-results.ts";
import type { OpenBrCode } from "../../src/transfers/store.ts";
import { call, clientHeaders, opsCall, type TransferJson } from "./api.ts";

export const happyKey = { pix_key: "100.000.001-08", pix_key_type: "cpf" as const };

/** PUT /ops/accounts/:id/limits as ops-token, now. */
export function putLimits(accountId: string, body: Record<string, unknown>): Promise<Response> {
  return opsCall(`/ops/accounts/${accountId}/limits`, { method: "PUT", body: JSON.stringify(body) });
}

/** GET /v1/limits as the account's client, now. */
export async function clientLimitsOf(accountId: string) {
  const response = await call("/v1/limits", { headers: await clientHeaders(accountId) });
  expect(response.status).toBe(200);
  return clientLimitsSchema.parse(await response.json());
}

/** Whom a transfer opened by `startAt` pays: a key (an email, else a CPF), or a key a BR Code resolved to. */
export type StartPayee = string | { pixKey: string; pixKeyType: PixKeyType; brCode: OpenBrCode };

/** Opens a transfer through the saga object with a chosen clock. */
export function startAt(
  accountId: string,
  amountCents: number,
  isoInstant: string,
  rules: Partial<RuleSettings> = {},
  payee: StartPayee = "100.000.001-08",
): Promise<StartResult> {
  return openAt(accountId, amountCents, isoInstant, rules, payee, null);
}

/** Asks at a chosen instant for a transfer on `scheduledFor` (its early slot), as POST /v1/transfers with `scheduled_for` does. */
export function scheduleAt(
  accountId: string,
  amountCents: number,
  isoInstant: string,
  scheduledFor: string,
  rules: Partial<RuleSettings> = {},
  payee: StartPayee = "100.000.001-08",
): Promise<StartResult> {
  return openAt(accountId, amountCents, isoInstant, rules, payee, scheduledFor);
}

function openAt(
  accountId: string,
  amountCents: number,
  isoInstant: string,
  rules: Partial<RuleSettings>,
  payee: StartPayee,
  scheduledFor: string | null,
): Promise<StartResult> {
  const id = crypto.randomUUID();
  const paid =
    typeof payee === "string" ? { pixKey: payee, pixKeyType: payee.includes("@") ? ("email" as const) : ("cpf" as const) } : payee;
  return env.TRANSFER_SAGA.getByName(id).start({
    id,
    accountId,
    amountCents,
    ...paid,
    description: null,
    idempotencyKey: crypto.randomUUID(),
    requestFingerprint: "fp",
    deadlineMs: readSagaTimings(env).deadlineMs,
    ...localClockFields(Date.parse(isoInstant)),
    rules: { ...readRuleSettings(env), ...rules },
    schedule: scheduledFor === null ? null : { scheduledFor, runAtMs: scheduledRunAtMs(scheduledFor, id, "early") },
  });
}

export function bodyOf(result: StartResult): TransferJson {
  if (result.outcome !== "created") throw new Error(`start answered ${result.outcome}`);
  return JSON.parse(result.responseBody) as TransferJson;
}

export interface LimitsJson {
  per_transfer_cents: number;
  night_per_transfer_cents: number;
  night_total_cents: number;
  night_starts_at: string;
  night_evening: string;
  used_tonight_cents: number;
  remaining_tonight_cents: number;
  pending: { limit: string; value_cents?: number; value?: string; effective_at: string }[];
}

/** What PUT /ops/accounts/:id/limits does with `body`, as an operator at `isoInstant`. */
export async function setLimitsAt(pool: Pool, accountId: string, body: Record<string, unknown>, isoInstant: string): Promise<LimitsJson> {
  const input = limitsInputOf(setLimitsBody.parse(body));
  const limits = await setLimits(pool, accountId, input, Date.parse(isoInstant), readRuleSettings(env), "ops-token");
  if (limits === null) throw new Error(`no account ${accountId}`);
  return limits as unknown as LimitsJson;
}

/** GET /v1/limits as it answers at `isoInstant`. */
export async function limitsAt(pool: Pool, accountId: string, isoInstant: string): Promise<LimitsJson> {
  const limits = await limitsFor(pool, accountId, Date.parse(isoInstant), readRuleSettings(env));
  if (limits === null) throw new Error(`no account ${accountId}`);
  return limits as unknown as LimitsJson;
}
