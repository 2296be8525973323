// Every string field of every route under hostile text (CONTRACT §2): NUL and other C0/C1
// controls, bidi overrides, 4-byte characters and unpaired surrogates. Whatever arrives, no
// route answers 5xx; text with a control character is a 400 (a form page for the console, an
// ignored event for a signed webhook, a 200 for Efí's); and a refusal writes nothing to any
// account involved.

import { env } from "cloudflare:test";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { controlProblem } from "../../src/lib/text.ts";
import { csrfFor, getPage, login, postForm } from "../console/support.ts";
import { personHeaders } from "../support/access.ts";
import { call, clientHeaders, createTransfer, opsHeaders, signedWebhook } from "../support/api.ts";
import { uniqueAccountId } from "../support/db.ts";
import { filePool } from "../support/pool-test.ts";
import { emptyAccount, footprint, validTransfer } from "./helpers.ts";
import { rateLimitConfig } from "./wrangler-config.ts";

const pool = filePool(2);

/** Pieces the strings are built from: ordinary text and every kind of trouble. */
const pieces = [
  "a",
  "Z",
  "7",
  "-",
  " ",
  "é",
  "ç",
  "\u0000",
  "\u0001",
  "\u0008",
  "\u001b",
  "\u001f",
  "\u007f",
  "\u0085",
  "\u009f",
  "\t",
  "\n",
  "\r",
  "\u202e",
  "\u2066",
  "\u200f",
  "\ufeff",
  "😀",
  "𝄞",
  "\u{10FFFF}",
  "\ud800",
  "\udfff",
];
const hostileText = fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 12 }).map((parts) => parts.join(""));

const unpairedSurrogates = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Unpaired surrogates cannot be percent-encoded: a URL or a form carries U+FFFD in their place. */
function asEncoded(text: string): string {
  return text.replace(unpairedSurrogates, "\ufffd");
}

function urlPart(text: string): string {
  return encodeURIComponent(asEncoded(text));
}

/**
 * A header value carries bytes up to U+00FF, without NUL, CR or LF, and loses its outer blanks
 * (the Fetch standard): what is left of the text once it is one.
 */
function asHeader(text: string): string {
  return [...text]
    .filter((ch) => ch.codePointAt(0) !== undefined && (ch.codePointAt(0) ?? 0) <= 0xff && !"\u0000\r\n".includes(ch))
    .join("")
    .replace(/^[\t ]+|[\t ]+$/g, "");
}

type Answer = "problem" | "page" | "webhook";

interface Case {
  name: string;
  send: (text: string) => Promise<Response>;
  answer: Answer;
  /** URLs and forms carry text percent-encoded, which cannot hold an unpaired surrogate. */
  encoded?: boolean;
  /** The text travels as a header value (asHeader). */
  header?: boolean;
  /** What a webhook answers whatever it says: 202 (Standard Webhooks) unless told. */
  webhookStatus?: number;
  /** Runs before the "before" snapshot (e.g. picks the next rate-limited account). */
  prepare?: () => Promise<void>;
  /** Operator notes may span lines: tab, CR and LF are allowed there. */
  lineBreaks?: boolean;
}

interface World {
  accountId: string;
  transferId: string;
  consoleCookie: string;
  csrf: string;
  newAccountPrefix: string;
}

let world: World;
const transferAccounts: string[] = [];
const requestsPerAccount = Math.floor(rateLimitConfig("TRANSFER_RATE_LIMIT").limit / 2);
let transferRequests = 0;

/** POST /v1/transfers spends the account's rate limit: a fresh empty account every so often. */
async function nextTransferAccount(): Promise<void> {
  if (transferAccounts.length === 0 || transferRequests >= requestsPerAccount) {
    transferAccounts.push(await emptyAccount("sfz"));
    transferRequests = 0;
  }
  transferRequests += 1;
}

beforeAll(async () => {
  const accountId = await emptyAccount("sfz");
  // An empty account's transfer ends at once (insufficient funds): a real id that is not in review.
  const created = await createTransfer(accountId, validTransfer);
  if (created.status !== 202) throw new Error(`the fixture transfer answered ${created.status}`);
  const transfer = await created.json<{ id: string }>();
  const consoleCookie = await login();
  world = {
    accountId,
    transferId: transfer.id,
    consoleCookie,
    csrf: await csrfFor(consoleCookie),
    newAccountPrefix: uniqueAccountId("sfz"),
  };
});

async function clientPost(body: Record<string, unknown>): Promise<Response> {
  const accountId = transferAccounts.at(-1) ?? "";
  return call("/v1/transfers", {
    method: "POST",
    headers: await clientHeaders(accountId, { "idempotency-key": crypto.randomUUID() }),
    body: JSON.stringify(body),
  });
}

async function clientGet(path: string): Promise<Response> {
  return call(path, { headers: await clientHeaders(world.accountId) });
}

/** An Efí delivery with the right hmac from one of EFI_WEBHOOK_IPS (CONTRACT §3b). */
function efiDelivery(body: unknown): Promise<Response> {
  const headers = { "content-type": "application/json", "cf-connecting-ip": "34.193.116.226" };
  return call(`/webhooks/efi/pix?hmac=${encodeURIComponent(env.EFI_WEBHOOK_HMAC ?? "")}`, {
    method: "POST",
    headers,
    body: JSON.stringify(body),
  });
}

function ops(path: string, method = "GET", body?: unknown): Promise<Response> {
  return call(path, { method, headers: opsHeaders(), ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
}

const cases: Case[] = [
  { name: "transfer pix_key", answer: "problem", prepare: nextTransferAccount, send: (t) => clientPost({ ...validTransfer, pix_key: t }) },
  {
    name: "transfer pix_key_type",
    answer: "problem",
    prepare: nextTransferAccount,
    send: (t) => clientPost({ ...validTransfer, pix_key_type: t }),
  },
  {
    name: "transfer description",
    answer: "problem",
    prepare: nextTransferAccount,
    send: (t) => clientPost({ ...validTransfer, description: t }),
  },
  { name: "transfer br_code", answer: "problem", prepare: nextTransferAccount, send: (t) => clientPost({ br_code: t, amount_cents: 100 }) },
  {
    name: "br-code preview br_code",
    answer: "problem",
    send: async (t) =>
      call("/v1/br-codes/preview", { method: "POST", headers: await clientHeaders(world.accountId), body: JSON.stringify({ br_code: t }) }),
  },
  { name: "transfer field name", answer: "problem", prepare: nextTransferAccount, send: (t) => clientPost({ ...validTransfer, [t]: "x" }) },
  { name: "list cursor", answer: "problem", encoded: true, send: (t) => clientGet(`/v1/transfers?cursor=${urlPart(t)}`) },
  { name: "list limit", answer: "problem", encoded: true, send: (t) => clientGet(`/v1/transfers?limit=${urlPart(t)}`) },
  { name: "transfer id", answer: "problem", encoded: true, send: (t) => clientGet(`/v1/transfers/${urlPart(t)}`) },
  { name: "balance query", answer: "problem", encoded: true, send: (t) => clientGet(`/v1/balance?${urlPart(t)}=${urlPart(t)}`) },
  { name: "limits query", answer: "problem", encoded: true, send: (t) => clientGet(`/v1/limits?q=${urlPart(t)}`) },
  {
    name: "ops account id",
    answer: "problem",
    encoded: true,
    send: (t) => ops(`/ops/accounts/${world.newAccountPrefix}${urlPart(t)}`, "PUT"),
  },
  {
    name: "ops credit idempotency_key",
    answer: "problem",
    send: (t) => ops(`/ops/accounts/${world.accountId}/credits`, "POST", { amount_cents: 1, idempotency_key: t }),
  },
  {
    name: "ops limits night_starts_at",
    answer: "problem",
    send: (t) => ops(`/ops/accounts/${world.accountId}/limits`, "PUT", { night_starts_at: t }),
  },
  { name: "ops queue state", answer: "problem", encoded: true, send: (t) => ops(`/ops/transfers?state=${urlPart(t)}`) },
  { name: "ops queue account_id", answer: "problem", encoded: true, send: (t) => ops(`/ops/transfers?account_id=${urlPart(t)}`) },
  { name: "ops transfer id", answer: "problem", encoded: true, send: (t) => ops(`/ops/transfers/${urlPart(t)}`) },
  {
    name: "ops resolve note",
    answer: "problem",
    lineBreaks: true,
    send: (t) => ops(`/ops/transfers/${world.transferId}/resolve`, "POST", { outcome: "not_sent", note: t }),
  },
  {
    name: "ops resolve outcome",
    answer: "problem",
    send: (t) => ops(`/ops/transfers/${world.transferId}/resolve`, "POST", { outcome: t, note: "x" }),
  },
  {
    name: "webhook idempotency_key",
    answer: "webhook",
    send: (t) => signedWebhook({ type: "pix.payment.updated", data: { idempotency_key: `${world.transferId}${t}` } }),
  },
  { name: "webhook type", answer: "webhook", send: (t) => signedWebhook({ type: t, data: { idempotency_key: world.transferId } }) },
  { name: "ops audit actor", answer: "problem", encoded: true, send: (t) => ops(`/ops/audit?actor=${urlPart(t)}`) },
  { name: "ops audit account_id", answer: "problem", encoded: true, send: (t) => ops(`/ops/audit?account_id=${urlPart(t)}`) },
  { name: "ops audit cursor", answer: "problem", encoded: true, send: (t) => ops(`/ops/audit?cursor=${urlPart(t)}`) },
  {
    name: "ops credit approval id",
    answer: "problem",
    encoded: true,
    send: async (t) => call(`/ops/credits/${urlPart(t)}/approve`, { method: "POST", headers: await personHeaders("fuzz@fintech.example") }),
  },
  { name: "ops events transfer_id", answer: "problem", encoded: true, send: (t) => ops(`/ops/events?transfer_id=${urlPart(t)}`) },
  {
    name: "stream transfer id",
    answer: "problem",
    encoded: true,
    send: (t) => clientGet(`/v1/transfers/${urlPart(t)}/events`),
  },
  {
    name: "stream Last-Event-ID",
    answer: "problem",
    header: true,
    // The fixture transfer is already final: an accepted id streams it and the stream ends.
    send: async (t) =>
      call(`/v1/transfers/${world.transferId}/events`, { headers: await clientHeaders(world.accountId, { "last-event-id": asHeader(t) }) }),
  },
  {
    name: "Efí webhook body",
    answer: "webhook",
    webhookStatus: 200,
    send: (t) =>
      efiDelivery({ pix: [{ endToEndId: t, status: t, valor: t, gnExtras: { idEnvio: `${world.transferId.replaceAll("-", "")}${t}` } }] }),
  },
  {
    name: "console resolve note",
    answer: "page",
    encoded: true,
    lineBreaks: true,
    send: (t) =>
      postForm(
        `/console/transfers/${world.transferId}/resolve`,
        { csrf: world.csrf, outcome: "not_sent", note: t, confirm: "yes" },
        world.consoleCookie,
      ),
  },
  { name: "console search", answer: "page", encoded: true, send: (t) => getPage(`/console/search?q=${urlPart(t)}`, world.consoleCookie) },
  {
    name: "console login token",
    answer: "page",
    encoded: true,
    send: (t) => postForm("/console/login", { token: t }, null),
  },
  {
    name: "console account id",
    answer: "page",
    encoded: true,
    send: (t) => getPage(`/console/accounts/${urlPart(t)}`, world.consoleCookie),
  },
];

/** Everything the fuzz could write: the fixed account, the transfer accounts, accounts it might create. */
async function written(): Promise<unknown> {
  const accounts = await Promise.all([world.accountId, ...transferAccounts].map((id) => footprint(pool, id)));
  const { rows } = await pool.query<{ limits: string; created: string }>(
    `SELECT (SELECT count(*) FROM account_limits WHERE account_id = $1)::text AS limits,
            (SELECT count(*) FROM accounts WHERE id LIKE $2 || '%')::text AS created`,
    [world.accountId, world.newAccountPrefix],
  );
  return { accounts, ...rows[0] };
}

/** Whether the server must refuse the text it receives. */
function refusable(route: Case, text: string): boolean {
  const received = route.header ? asHeader(text) : route.encoded ? asEncoded(text) : text;
  return controlProblem(received, { lineBreaks: route.lineBreaks === true }) !== null;
}

describe("hostile text in every string field", () => {
  it.each(cases.map((c) => [c.name, c] as const))("%s: no 5xx, controls refused, a refusal writes nothing", async (_name, route) => {
    await fc.assert(
      fc.asyncProperty(hostileText, async (text) => {
        await route.prepare?.();
        const before = await written();
        const response = await route.send(text);
        const body = await response.text();
        expect(response.status, body).toBeLessThan(500);
        const refused = response.status >= 400;
        if (refused) expect(await written()).toEqual(before);
        if (route.answer === "problem" && refused) expect(response.headers.get("content-type")).toBe("application/problem+json");
        if (!refusable(route, text)) return;
        if (route.answer === "webhook") expect(response.status).toBe(route.webhookStatus ?? 202);
        else expect(response.status, body).toBe(400);
      }),
      { numRuns: 20 },
    );
  });
});
