// GET /v1/pix-keys/:key?type= (CONTRACT §2): who a key belongs to, before sending, masked, within
// the account's lookup budget (src/lookup/). Past the budget 429, a provider without a directory
// 501 (nothing spent), a provider that said nothing 503 (nothing spent); both with Retry-After
// where waiting helps.
import { Hono } from "hono";
import { z } from "zod";
import { pixKeyTypes } from "../lib/ids.ts";
import { log } from "../lib/log.ts";
import { type LookupResult, lookUpPixKey } from "../lookup/look-up.ts";
import { normalisePixKey } from "../pix/key.ts";
import { providerFor } from "../provider/select.ts";
import { notFound, problem } from "../web/problem.ts";
import type { AppEnv } from "./app-env.ts";
import { withRequestDb } from "./db.ts";
import { queryParams, validationProblem } from "./validation.ts";

export const pixKeyLookupQuery = z.strictObject({ type: z.enum(pixKeyTypes) });

/** After a provider fault: long enough for a blip to pass, short enough for a payer waiting. */
export const lookupUnavailableRetryAfterSeconds = 5;

export const pixKeyRoutes = new Hono<AppEnv>();

pixKeyRoutes.get("/:key", queryParams(pixKeyLookupQuery), async (c) => {
  const { type } = c.req.valid("query");
  const key = normalisePixKey(type, c.req.param("key"));
  if (!key.ok) return validationProblem(c, [{ field: "key", message: key.message }]);
  const accountId = c.get("accountId");
  const result: LookupResult = await withRequestDb(c, (db) =>
    lookUpPixKey(db, providerFor(c.env), accountId, { pixKey: key.key, pixKeyType: type }, Date.now()),
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
