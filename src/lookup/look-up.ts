// Who a Pix key belongs to, before sending: the budget reserved, the provider asked (outside
// any transaction), the real cost settled, the owner masked. Every outcome is a value.
import type { Queryable } from "../db/queryable.ts";
import { maskDocument, maskName } from "../pix/mask.ts";
import type { KeyLookup, PixProvider } from "../provider/port.ts";
import { lookupBudget, reserveLookup, settleLookup } from "./budget.ts";

/** GET /v1/pix-keys/:key's body (CONTRACT §2). */
export interface KeyOwnerJson {
  pix_key: string;
  pix_key_type: string;
  name: string;
  document: string;
  institution: { ispb: string; name: string };
}

export type LookupResult =
  | { kind: "found"; owner: KeyOwnerJson }
  | { kind: "not_found" }
  | { kind: "unsupported" }
  | { kind: "over_budget"; retryAfterMs: number }
  | { kind: "provider_unavailable"; why: string }
  | { kind: "account_not_found" };

export async function lookUpPixKey(
  db: Queryable,
  provider: PixProvider,
  accountId: string,
  query: KeyLookup,
  nowMs: number,
): Promise<LookupResult> {
  // Checked first, so a provider without a directory spends nothing.
  if (provider.lookup === undefined) return { kind: "unsupported" };
  const reservation = await reserveLookup(db, accountId, nowMs);
  if (reservation.outcome === "account_not_found") return { kind: "account_not_found" };
  if (reservation.outcome === "refused") return { kind: "over_budget", retryAfterMs: reservation.retryAfterMs };
  const { reservedTokens } = reservation;
  const answer = await provider.lookup(query);
  switch (answer.kind) {
    case "found":
      await settleLookup(db, accountId, reservedTokens, lookupBudget.hitCost);
      return {
        kind: "found",
        owner: {
          pix_key: query.pixKey,
          pix_key_type: query.pixKeyType,
          name: maskName(answer.owner.name),
          document: maskDocument(answer.owner.document),
          institution: { ispb: answer.owner.ispb, name: answer.owner.institution },
        },
      };
    case "not_found":
      await settleLookup(db, accountId, reservedTokens, lookupBudget.missCost);
      return { kind: "not_found" };
    case "unknown":
      // The directory said nothing: the payer is not charged for our provider's fault.
      await settleLookup(db, accountId, reservedTokens, 0);
      return { kind: "provider_unavailable", why: answer.why };
  }
}
