// GET /v1/pix-keys/:key?type= (CONTRACT §2): who a key belongs to, before sending, masked, within
// the account's lookup budget (src/lookup/). Past the budget 429, a provider without a directory
// 501 (nothing spent), a provider that said nothing 503 (nothing spent); both with Retry-After
// where waiting helps.
import { Hono } from "hono";
import { log } from "../lib/log.ts";
import { lookupBudget } from "../lookup/budget.ts";
import { type LookupResult, lookUpPixKey } from "../lookup/look-up.ts";
import { providerFor } from "../provider/select.ts";
import { notFound, problem } from "../web/problem.ts";
import type { AppEnv } from "./app-env.ts";
import { withRequestDb } from "./db.ts";
import { jsonResponse, problemResponse, retryAfterHeader } from "./openapi/build.ts";
import { documented } from "./openapi/describe.ts";
import { clientAuthResponses, clientSecurity } from "./openapi/security.ts";
import { pixKeyInPath, pixKeyPathParameters, pixKeyTypeQuery } from "./pix-key-path.ts";
import { queryParams } from "./validation.ts";

/** After a provider fault: long enough for a blip to pass, short enough for a payer waiting. */
export const lookupUnavailableRetryAfterSeconds = 5;

export const pixKeyRoutes = new Hono<AppEnv>();

const refillPerMinute = 60_000 / lookupBudget.tokenMs;

const lookUpPixKeyDoc = documented({
  operationId: "lookUpPixKey",
  summary: "Who a Pix key belongs to",
  description: [
    "Asks the directory (DICT) through the provider before you send: the owner's name and document, masked, and their institution.",
    `**Budget** per account, modelled on the Central Bank's directory: a bucket of ${lookupBudget.tokensMax} that refills ${refillPerMinute} a minute; a hit costs ${lookupBudget.hitCost}, a miss (\`404\`) costs ${lookupBudget.missCost}. A lookup needs at least one left; past it, \`429\` with \`Retry-After\`. Concurrent lookups never spend more than the bucket holds.`,
    "Nothing is spent on a `400`, a `501` or a `503`.",
  ].join("\n\n"),
  tags: ["transfers"],
  security: clientSecurity,
  parameters: pixKeyPathParameters,
  responses: {
    "200": jsonResponse("The key's owner, masked.", "PixKeyOwner"),
    "400": problemResponse("The key is not a valid key of that type, `type` is missing or unknown, or an unknown query parameter."),
    ...clientAuthResponses,
    "404": problemResponse("No one holds this key (a miss: it costs 20)."),
    "429": problemResponse("The lookup budget is spent (`type` ends in `/rate-limited`).", retryAfterHeader),
    "501": problemResponse("The provider offers no directory lookup (`type` ends in `/lookup-unsupported`); nothing spent."),
    "503": problemResponse("The directory did not answer, or the token's signing keys cannot be fetched; nothing spent.", retryAfterHeader),
  },
});

pixKeyRoutes.get("/:key", lookUpPixKeyDoc, queryParams(pixKeyTypeQuery), async (c) => {
  const key = pixKeyInPath(c, c.req.valid("query").type);
  if (!key.ok) return key.response;
  const accountId = c.get("accountId");
  const result: LookupResult = await withRequestDb(c, (db) =>
    lookUpPixKey(db, providerFor(c.env), accountId, { pixKey: key.pixKey, pixKeyType: key.pixKeyType }, Date.now()),
  );
  switch (result.kind) {
    case "found":
      return c.json(result.owner);
    case "not_found":
      return notFound(c, "No one holds this Pix key.");
    case "unsupported":
      return problem(c, 501, {
        type: "lookup-unsupported",
        detail: "The payment provider offers no directory lookup; nothing was spent from your lookup budget.",
      });
    case "over_budget": {
      const seconds = Math.max(1, Math.ceil(result.retryAfterMs / 1000));
      return problem(c, 429, {
        type: "rate-limited",
        detail: `Too many key lookups for this account; the next one is possible in ${seconds} seconds.`,
        headers: { "Retry-After": String(seconds) },
      });
    }
    case "provider_unavailable":
      log(c, "pix_key_lookup_unavailable", { account_id: accountId, why: result.why }, "warn");
      return problem(c, 503, {
        type: "unavailable",
        detail: "The directory did not answer; nothing was spent from your lookup budget. Try again shortly.",
        headers: { "Retry-After": String(lookupUnavailableRetryAfterSeconds) },
      });
    case "account_not_found":
      return problem(c, 403, { type: "forbidden", detail: "The account of this token does not exist." });
  }
});
