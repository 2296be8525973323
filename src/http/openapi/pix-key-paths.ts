// The recipient lookup (CONTRACT §2 `GET /v1/pix-keys/{key}`) and, with the sandbox on, the
// sandbox's directory it asks (§4 `GET /dict/{key}`).
import { lookupBudget } from "../../lookup/budget.ts";
import { pixKeyLookupQuery } from "../pix-keys.ts";
import { jsonResponse, pathParameter, problemResponse, queryParameters, retryAfterHeader } from "./build.ts";
import { clientAuthResponses, clientSecurity } from "./client-paths.ts";
import { pspResponse, sandboxOperation } from "./provider-paths.ts";
import type { RoutedOperation } from "./types.ts";

const keyParameter = pathParameter("key", "The Pix key, as for a transfer (CPF/CNPJ punctuation accepted; URL-encoded).", {
  type: "string",
});
const typeParameter = queryParameters(pixKeyLookupQuery, { type: "The key's type." });
const refillPerMinute = 60_000 / lookupBudget.tokenMs;

export function pixKeyOperations(): RoutedOperation[] {
  return [
    {
      method: "get",
      path: "/v1/pix-keys/{key}",
      operation: {
        operationId: "lookUpPixKey",
        summary: "Who a Pix key belongs to",
        description: [
          "Asks the directory (DICT) through the provider before you send: the owner's name and document, masked, and their institution.",
          `**Budget** per account, modelled on the Central Bank's directory: a bucket of ${lookupBudget.tokensMax} that refills ${refillPerMinute} a minute; a hit costs ${lookupBudget.hitCost}, a miss (\`404\`) costs ${lookupBudget.missCost}. A lookup needs at least one left; past it, \`429\` with \`Retry-After\`. Concurrent lookups never spend more than the bucket holds.`,
          "Nothing is spent on a `400`, a `501` or a `503`.",
        ].join("\n\n"),
        tags: ["transfers"],
        security: clientSecurity,
        parameters: [keyParameter, ...typeParameter],
        responses: {
          "200": jsonResponse("The key's owner, masked.", "PixKeyOwner"),
          "400": problemResponse("The key is not a valid key of that type, `type` is missing or unknown, or an unknown query parameter."),
          ...clientAuthResponses,
          "404": problemResponse("No one holds this key (a miss: it costs 20)."),
          "429": problemResponse("The lookup budget is spent (`type` ends in `/rate-limited`).", retryAfterHeader),
          "501": problemResponse("The provider offers no directory lookup (`type` ends in `/lookup-unsupported`); nothing spent."),
          "503": problemResponse(
            "The directory did not answer, or the token's signing keys cannot be fetched; nothing spent.",
            retryAfterHeader,
          ),
        },
      },
    },
  ];
}

export function sandboxDictOperations(): RoutedOperation[] {
  return [
    {
      method: "get",
      path: "/sandbox/provider/dict/{key}",
      operation: sandboxOperation({
        operationId: "sandboxDict",
        summary: "PSP: directory lookup",
        description:
          "`{ name, document, ispb, institution }`: a made-up owner, the same for a key every time, for every valid key; email keys beginning `unknown` and EVPs ending `0000` are `404`.",
        security: [{ providerToken: [] }, {}],
        parameters: [keyParameter, ...typeParameter],
        responses: {
          "200": pspResponse("The key's owner."),
          "400": pspResponse("An invalid key or type: `{ code: invalid_request }`."),
          "404": pspResponse("No one holds this key: `{ code: not_found }`."),
          "503": pspResponse("During an outage."),
        },
      }),
    },
  ];
}
