// Trusted recipients in tests: the client API's calls, and a recipient asked for at a chosen
// instant (the store with the clock driven, as setLimitsAt does for limits).
import { env } from "cloudflare:test";
import type { Pool } from "@neondatabase/serverless";
import { readTunable } from "../../src/config/tunables.ts";
import type { PixKeyType } from "../../src/lib/ids.ts";
import { putTrustedRecipient, type TrustedRecipient } from "../../src/limits/trusted-recipients.ts";
import { call, clientHeaders } from "./api.ts";

export const trustedDelayMs = readTunable("TRUSTED_RECIPIENT_DELAY_MS", env.TRUSTED_RECIPIENT_DELAY_MS);

function recipientPath(pixKey: string, pixKeyType: string): string {
  return `/v1/trusted-recipients/${encodeURIComponent(pixKey)}?type=${encodeURIComponent(pixKeyType)}`;
}

/** PUT /v1/trusted-recipients/:key?type=, with `body` as given (a string is sent as is; undefined sends none). */
export async function putTrusted(accountId: string, pixKey: string, pixKeyType: string, body?: unknown): Promise<Response> {
  const init: RequestInit = { method: "PUT", headers: await clientHeaders(accountId) };
  if (body !== undefined) init.body = typeof body === "string" ? body : JSON.stringify(body);
  return call(recipientPath(pixKey, pixKeyType), init);
}

export async function removeTrusted(accountId: string, pixKey: string, pixKeyType: string): Promise<Response> {
  return call(recipientPath(pixKey, pixKeyType), { method: "DELETE", headers: await clientHeaders(accountId) });
}

export async function listTrusted(accountId: string): Promise<Response> {
  return call("/v1/trusted-recipients", { headers: await clientHeaders(accountId) });
}

/** What PUT does at `isoInstant`: active TRUSTED_RECIPIENT_DELAY_MS later. */
export async function trustAt(
  pool: Pool,
  accountId: string,
  pixKey: string,
  pixKeyType: PixKeyType,
  isoInstant: string,
): Promise<TrustedRecipient> {
  const put = await putTrustedRecipient(pool, accountId, { pixKey, pixKeyType }, null, Date.parse(isoInstant), trustedDelayMs);
  if (put.outcome !== "created" && put.outcome !== "exists") throw new Error(`trusted_recipient_put answered ${put.outcome}`);
  return put.recipient;
}

/** How many trusted recipients the account has in the database: a refused request adds none. */
export async function trustedCount(pool: Pool, accountId: string): Promise<number> {
  const { rows } = await pool.query<{ n: string }>("SELECT count(*)::text AS n FROM trusted_recipients WHERE account_id = $1", [accountId]);
  return Number(rows[0]?.n ?? 0);
}
