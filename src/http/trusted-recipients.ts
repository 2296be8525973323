// Trusted recipients (CONTRACT §2): PUT, GET and DELETE /v1/trusted-recipients. A recipient is
// active TRUSTED_RECIPIENT_DELAY_MS after it was asked for, so a thief holding the phone cannot
// trust his own key and empty the account tonight; a removal is at once.
import { type Context, Hono } from "hono";
import { z } from "zod";
import { configuredOrThrow } from "../config/isolate.ts";
import { trustedRecipientNameLengthMax, trustedRecipientsPerAccountMax } from "../limits/trusted-recipient-bounds.ts";
import { listTrustedRecipients, putTrustedRecipient, removeTrustedRecipient } from "../limits/trusted-recipients.ts";
import { notFound, problem } from "../web/problem.ts";
import type { AppEnv } from "./app-env.ts";
import { requestBusinessNowMs } from "./business-now.ts";
import { withRequestDb } from "./db.ts";
import { jsonRequestBody, jsonResponse, problemResponse, requestIdResponseHeader, retryAfterHeader } from "./openapi/build.ts";
import { documented } from "./openapi/describe.ts";
import { clientAuthResponses, clientSecurity } from "./openapi/security.ts";
import { pixKeyInPath, pixKeyPathParameters, pixKeyTypeQuery } from "./pix-key-path.ts";
import { jsonBody, queryParams } from "./validation.ts";

export const putTrustedRecipientBody = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1)
    .max(trustedRecipientNameLengthMax)
    .nullable()
    .optional()
    .describe("Your label for the recipient; absent or null keeps the one it has (none for a new one)"),
});

export const trustedRecipientRoutes = new Hono<AppEnv>();

/** PUT and GET judge `pending` or `active` at business time, which the sandbox reads from the database. */
const businessTimeUnavailable = problemResponse(
  "The token's signing keys (JWKS) cannot be fetched, or (sandbox only) business time cannot be read: retry after `Retry-After`. Nothing was written.",
  retryAfterHeader,
);

function noAccount(c: Context): Response {
  return problem(c, 403, { type: "forbidden", detail: "The account of this token does not exist." });
}

const putDoc = documented({
  operationId: "putTrustedRecipient",
  summary: "Trust a recipient",
  description: [
    "Asks to trust a Pix key (a conta cadastrada): once active, a transfer to it is exempt from the nighttime per-transfer cap, the night window's total and the new-key review; the per-transfer and daily limits (and the new-device cap) still apply.",
    "The recipient is `pending` until `effective_at`, `TRUSTED_RECIPIENT_DELAY_MS` (24 h by default) after the request: `202`. A key already there answers `200` as it is (a `name` given renames it; the wait does not restart). Concurrent requests for one key create one recipient.",
    `At most ${trustedRecipientsPerAccountMax} per account: past it \`422\` with \`type\` ending in \`/too-many-trusted-recipients\`, nothing written. The body may be left out.`,
  ].join("\n\n"),
  tags: ["accounts"],
  security: clientSecurity,
  parameters: pixKeyPathParameters,
  requestBody: { ...jsonRequestBody("PutTrustedRecipientRequest"), required: false },
  responses: {
    "200": jsonResponse("The key was already there: the recipient as it is.", "TrustedRecipient"),
    "202": jsonResponse("Asked for: `pending` until `effective_at`.", "TrustedRecipient"),
    "400": problemResponse(
      "The key is not a valid key of that type, `type` is missing or unknown, or the body is invalid. Nothing was written.",
    ),
    ...clientAuthResponses,
    "413": problemResponse("The body is over 16 KiB."),
    "422": problemResponse(
      `The account already has ${trustedRecipientsPerAccountMax} trusted recipients (\`type\` ends in \`/too-many-trusted-recipients\`). Nothing was written.`,
    ),
    "503": businessTimeUnavailable,
  },
});

trustedRecipientRoutes.put("/:key", putDoc, queryParams(pixKeyTypeQuery), jsonBody(putTrustedRecipientBody, {}, true), async (c) => {
  const key = pixKeyInPath(c, c.req.valid("query").type);
  if (!key.ok) return key.response;
  const config = configuredOrThrow(c.env);
  const name = c.req.valid("json").name ?? null;
  // The wait is counted in business time (docs/clock.md), as is every `active` judgement after it.
  const nowMs = await requestBusinessNowMs(c, config);
  const put = await withRequestDb(c, (db) => putTrustedRecipient(db, c.get("accountId"), key, name, nowMs, config.trustedRecipientDelayMs));
  switch (put.outcome) {
    case "created":
      return c.json(put.recipient, 202);
    case "exists":
      return c.json(put.recipient, 200);
    case "too_many":
      return problem(c, 422, {
        type: "too-many-trusted-recipients",
        detail: `An account may trust at most ${trustedRecipientsPerAccountMax} recipients; remove one first.`,
      });
    case "account_not_found":
      return noAccount(c);
  }
});

const listDoc = documented({
  operationId: "listTrustedRecipients",
  summary: "Your trusted recipients",
  description: `Every recipient you trust or asked to trust (at most ${trustedRecipientsPerAccountMax}), oldest first, each \`pending\` or \`active\`.`,
  tags: ["accounts"],
  security: clientSecurity,
  responses: {
    "200": jsonResponse("The trusted recipients.", "TrustedRecipientList"),
    ...clientAuthResponses,
    "503": businessTimeUnavailable,
  },
});

trustedRecipientRoutes.get("/", listDoc, async (c) => {
  const nowMs = await requestBusinessNowMs(c, configuredOrThrow(c.env));
  const data = await withRequestDb(c, (db) => listTrustedRecipients(db, c.get("accountId"), nowMs));
  return data === null ? noAccount(c) : c.json({ data });
});

const removeDoc = documented({
  operationId: "removeTrustedRecipient",
  summary: "Stop trusting a recipient",
  description: "Removes the recipient at once, pending or active: the next transfer to it meets every rule.",
  tags: ["accounts"],
  security: clientSecurity,
  parameters: pixKeyPathParameters,
  responses: {
    "204": { description: "Removed.", headers: requestIdResponseHeader },
    "400": problemResponse("The key is not a valid key of that type, or `type` is missing or unknown."),
    ...clientAuthResponses,
    "404": problemResponse("You do not trust this key."),
  },
});

trustedRecipientRoutes.delete("/:key", removeDoc, queryParams(pixKeyTypeQuery), async (c) => {
  const key = pixKeyInPath(c, c.req.valid("query").type);
  if (!key.ok) return key.response;
  const removed = await withRequestDb(c, (db) => removeTrustedRecipient(db, c.get("accountId"), key));
  switch (removed) {
    case "removed":
      return c.body(null, 204);
    case "not_found":
      return notFound(c, "You do not trust this key.");
    case "account_not_found":
      return noAccount(c);
  }
});
