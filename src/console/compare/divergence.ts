// A provider reconciliation divergence (or a paid-after-release case's evidence) as fields side by
// side: the fate each side gives the payment, its amount and its end-to-end id.
import { z } from "zod";
import { type OursView, type ProviderView, sameFate } from "../../reconciliation/match.ts";
import { failureReasons, transferStates } from "../../saga/states.ts";
import { formatCents } from "../format.ts";
import { type ComparedField, compared } from "./fields.ts";

function ourOutcome(ours: OursView): string {
  return ours.failure_reason === null ? ours.state : `${ours.state} (${ours.failure_reason})`;
}

function theirOutcome(provider: ProviderView): string {
  return provider.detail === undefined ? provider.status : `${provider.status} (${provider.detail})`;
}

/** Either side may be missing: no transfer of ours under the provider's key, or nothing at the provider. */
export function divergenceFields(ours: OursView | null, provider: ProviderView | null): ComparedField[] {
  const outcome: ComparedField = {
    label: "Outcome",
    ours: ours === null ? "no transfer of ours" : ourOutcome(ours),
    theirs: provider === null ? "nothing" : theirOutcome(provider),
    differs: ours === null || provider === null || !sameFate(ours.state, provider.status),
  };
  const amount = (cents: number | null | undefined) => (cents === null || cents === undefined ? null : formatCents(cents));
  return [
    outcome,
    compared("Amount", amount(ours?.amount_cents), amount(provider?.amount_cents)),
    compared("End-to-end id", ours?.end_to_end_id ?? null, provider?.end_to_end_id ?? null),
  ];
}

const oursSchema = z.looseObject({
  state: z.enum(transferStates),
  amount_cents: z.number().int(),
  end_to_end_id: z.string().nullable().default(null),
  failure_reason: z.enum(failureReasons).nullable().default(null),
  released_at: z.string().nullable().default(null),
});

const providerSchema = z.looseObject({
  status: z.string(),
  amount_cents: z.number().int().nullable().default(null),
  end_to_end_id: z.string().nullable().default(null),
  detail: z.string().optional(),
});

/** Both sides of a recorded divergence or case evidence (`{ ours, provider, ... }`); a side it cannot read is null. */
export function divergenceSides(recorded: unknown): { ours: OursView | null; provider: ProviderView | null } {
  const sides = z
    .looseObject({ ours: oursSchema.nullable().catch(null), provider: providerSchema.nullable().catch(null) })
    .safeParse(recorded);
  return sides.success ? { ours: sides.data.ours, provider: sides.data.provider } : { ours: null, provider: null };
}
