// Black-box helpers: call the Worker exactly as clients, operators and providers do.
import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { expect } from "vitest";
import { sleep } from "../../src/lib/sleep.ts";
import { uniqueAccountId } from "./db.ts";

export const baseUrl = "http://pix.test";

export function call(path: string, init: RequestInit = {}): Promise<Response> {
  return exports.default.fetch(new Request(`${baseUrl}${path}`, init));
}

export function opsHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${env.OPS_TOKEN}`, "content-type": "application/json", ...extra };
}

/** `call` as the ops token's operator; headers in `init` are added to the token's, or replace them. */
export function opsCall(path: string, init: Omit<RequestInit, "headers"> & { headers?: Record<string, string> } = {}): Promise<Response> {
  return call(path, { ...init, headers: opsHeaders(init.headers) });
}

function base64Url(bytes: Uint8Array | string): string {
  const raw = typeof bytes === "string" ? bytes : String.fromCharCode(...bytes);
  return btoa(raw).replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");
}

/**
 * The device every helper's token names unless told otherwise: ignored with DEVICE_RULES off (the
 * local default), and with it on (the `devices` project) a device no test registers.
 */
export const supportDeviceId = "test-support";

/** An HS256 client token for `sub`, valid for `ttlSeconds`, with `claims` besides (or instead of the `device_id`). */
export async function clientToken(
  sub: string,
  ttlSeconds = 600,
  secret = env.JWT_SECRET ?? "",
  claims: Record<string, unknown> = { device_id: supportDeviceId },
): Promise<string> {
  const header = base64Url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const payload = base64Url(JSON.stringify({ ...claims, sub, exp: Math.floor(Date.now() / 1000) + ttlSeconds }));
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const signature = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${header}.${payload}`));
  return `${header}.${payload}.${base64Url(new Uint8Array(signature))}`;
}

export async function clientHeaders(accountId: string, extra: Record<string, string> = {}): Promise<Record<string, string>> {
  return { authorization: `Bearer ${await clientToken(accountId)}`, "content-type": "application/json", ...extra };
}

/** A new account funded through the operator API. */
export async function fundedAccount(amountCents: number): Promise<string> {
  const accountId = uniqueAccountId();
  const created = await opsCall(`/ops/accounts/${accountId}`, { method: "PUT" });
  if (created.status !== 201) throw new Error(`account creation answered ${created.status}`);
  if (amountCents > 0) await creditAccount(accountId, amountCents, "seed");
  return accountId;
}

/** Money arriving on an account through the operator API (a credit of its own, once per key). */
export async function creditAccount(accountId: string, amountCents: number, idempotencyKey: string = crypto.randomUUID()): Promise<void> {
  const credited = await opsCall(`/ops/accounts/${accountId}/credits`, {
    method: "POST",
    body: JSON.stringify({ amount_cents: amountCents, idempotency_key: idempotencyKey }),
  });
  if (credited.status !== 200) throw new Error(`credit answered ${credited.status}`);
}

export interface TransferBody {
  amount_cents: number;
  pix_key: string;
  pix_key_type: string;
  description?: string | null;
}

export async function createTransfer(
  accountId: string,
  body: TransferBody,
  idempotencyKey: string = crypto.randomUUID(),
): Promise<Response> {
  return call("/v1/transfers", {
    method: "POST",
    headers: await clientHeaders(accountId, { "idempotency-key": idempotencyKey }),
    body: JSON.stringify(body),
  });
}

export type TransferJson = {
  id: string;
  state: string;
  amount_cents: number;
  failure_reason: string | null;
  failure_code: string | null;
  end_to_end_id: string | null;
  returned_cents: number;
  returns: { id: string; amount_cents: number; reason: string; at: string }[];
  history: { state: string; at: string; reason: string | null }[];
};

export async function getTransfer(accountId: string, id: string): Promise<TransferJson> {
  const response = await call(`/v1/transfers/${id}`, { headers: await clientHeaders(accountId) });
  if (response.status !== 200) throw new Error(`GET transfer answered ${response.status}`);
  return response.json<TransferJson>();
}

export async function getBalance(accountId: string): Promise<{ balance_cents: number; held_cents: number; available_cents: number }> {
  const response = await call("/v1/balance", { headers: await clientHeaders(accountId) });
  return response.json();
}

const terminalOrReview = ["completed", "compensated", "needs_review"];

/** One polling loop for every wait on a transfer: `done` ends it; `where` says where it stuck. */
async function pollTransfer(
  accountId: string,
  id: string,
  timeoutMs: number,
  done: (transfer: TransferJson) => boolean,
  where: (transfer: TransferJson) => string,
): Promise<TransferJson> {
  const giveUpAtMs = Date.now() + timeoutMs;
  for (;;) {
    const transfer = await getTransfer(accountId, id);
    if (done(transfer)) return transfer;
    if (Date.now() > giveUpAtMs) throw new Error(`transfer ${id} ${where(transfer)} after ${timeoutMs} ms`);
    await sleep(50);
  }
}

/** Polls the public API until the transfer settles into a final state (alarms run in real time). */
export function waitForFinalState(accountId: string, id: string, timeoutMs = 15_000): Promise<TransferJson> {
  return pollTransfer(
    accountId,
    id,
    timeoutMs,
    (t) => terminalOrReview.includes(t.state),
    (t) => `still ${t.state}`,
  );
}

/** Polls the public API until the transfer is in `state` (a step on its way). */
export function waitForState(accountId: string, id: string, state: string, timeoutMs = 10_000): Promise<TransferJson> {
  return pollTransfer(
    accountId,
    id,
    timeoutMs,
    (t) => t.state === state,
    (t) => `still ${t.state}, never ${state}`,
  );
}

/** Polls the public API until the transfer has left `state` (a scheduled one started, say). */
export function waitForStateLeft(accountId: string, id: string, state: string, timeoutMs = 10_000): Promise<TransferJson> {
  return pollTransfer(
    accountId,
    id,
    timeoutMs,
    (t) => t.state !== state,
    (t) => `still ${t.state}`,
  );
}

/** Polls the public API until `returned_cents` reaches `cents` (the sandbox returns in real time). */
export function waitForReturned(accountId: string, id: string, cents: number, timeoutMs = 10_000): Promise<TransferJson> {
  return pollTransfer(
    accountId,
    id,
    timeoutMs,
    (t) => t.returned_cents >= cents,
    (t) => `has ${t.returned_cents} returned`,
  );
}

/** A transfer created (202) and waited on until it ends: where tests that start from a finished one begin. */
export async function finishedTransfer(accountId: string, body: TransferBody): Promise<TransferJson> {
  const created = await createTransfer(accountId, body);
  expect(created.status).toBe(202);
  return waitForFinalState(accountId, (await created.json<TransferJson>()).id);
}

/** The balance one transfer of `amountCents` leaves once it ends in `state`: the sandbox tables check it for every row. */
export async function expectBalanceAfter(accountId: string, startCents: number, amountCents: number, state: string): Promise<void> {
  const paidCents = state === "completed" ? amountCents : 0;
  const heldCents = state === "needs_review" ? amountCents : 0;
  expect(await getBalance(accountId)).toEqual({
    account_id: accountId,
    balance_cents: startCents - paidCents,
    held_cents: heldCents,
    available_cents: startCents - paidCents - heldCents,
  });
}

export interface SandboxPayment {
  idempotency_key: string;
  send_calls: number;
  status_calls: number;
  made: boolean;
  status: string;
  end_to_end_id: string | null;
}

export async function sandboxPayment(idempotencyKey: string): Promise<SandboxPayment | null> {
  const response = await call(`/sandbox/provider/payments/${idempotencyKey}`);
  if (response.status === 404) return null;
  return response.json<SandboxPayment>();
}

/** The ledger report over every account: nothing diverges. */
export async function expectLedgerReconciled(): Promise<void> {
  const response = await opsCall("/ops/reconciliation");
  const report = await response.json<{ ok: boolean; divergences: unknown[] }>();
  expect(report.divergences).toEqual([]);
  expect(report.ok).toBe(true);
}

/** A webhook signed with the configured secret, as the provider would send it. */
export async function signedWebhook(payload: unknown, webhookId: string = `msg_${crypto.randomUUID()}`): Promise<Response> {
  const { signedWebhookHeaders } = await import("../../src/lib/webhook-signature.ts");
  const body = JSON.stringify(payload);
  const timestampSeconds = Math.floor(Date.now() / 1000);
  const secret = (env.WEBHOOK_SECRET ?? "").split(" ")[0] ?? "";
  const headers = await signedWebhookHeaders({ secret, id: webhookId, timestampSeconds, body });
  return call("/webhooks/provider", { method: "POST", headers, body });
}
