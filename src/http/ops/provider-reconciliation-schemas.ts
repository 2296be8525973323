// What provider reconciliation's routes answer (CONTRACT §5), as zod schemas: the OpenAPI
// document is built from them and the tests check the answers against them.
import { z } from "zod";
import { caseDecisions } from "../../reconciliation/case-decisions.ts";
import { divergenceKinds } from "../../reconciliation/match.ts";

const timestamp = z.iso.datetime().describe("RFC 3339 UTC time");

export const providerDivergenceSchema = z.strictObject({
  kind: z.enum(divergenceKinds),
  transfer_id: z.string().describe("Our transfer; for unknown_at_provider_key, the key the provider holds the payment under"),
  end_to_end_id: z.string().nullable(),
  ours: z
    .looseObject({ state: z.string(), amount_cents: z.number().int(), released_at: timestamp.nullable() })
    .nullable()
    .describe("Our side: state, amount_cents, end_to_end_id, failure_reason, released_at"),
  provider: z
    .looseObject({ status: z.string(), amount_cents: z.number().int().nullable() })
    .nullable()
    .describe("The provider's side: status, amount_cents, end_to_end_id, and a detail when it was asked directly"),
});

export const providerReconciliationRunSchema = z.strictObject({
  run_id: z.string(),
  from: timestamp,
  to: timestamp,
  actor: z.string().describe("Who ran it: an Access email, ops-token, or cron (the daily run)"),
  ran_at: timestamp,
  ok: z.boolean().describe("The whole statement was read and nothing diverged"),
  checked: z.number().int().nonnegative().describe("Transfers compared: ours first sent in the window and every payment on the statement"),
  returns_applied: z.number().int().nonnegative().describe("Returns this run credited (each is credited once, whoever finds it)"),
  statement: z.strictObject({
    complete: z.boolean(),
    problem: z.string().nullable().describe("Why the statement (or our side) could not be read whole; nothing is reported missing then"),
  }),
  divergences: z.array(providerDivergenceSchema),
});

export const providerCaseSchema = z.strictObject({
  transfer_id: z.uuid(),
  account_id: z.string(),
  amount_cents: z.number().int().positive(),
  end_to_end_id: z.string().nullable(),
  opened_at: timestamp,
  run_id: z.string().describe("The run that found it"),
  evidence: z.looseObject({}).describe("Our release (its history row), the provider's confirmation, both sides as the run saw them"),
  decision: z
    .strictObject({ decision: z.enum(caseDecisions), note: z.string(), decided_by: z.string(), decided_at: timestamp })
    .nullable()
    .describe("Null while the case is open"),
});

export const providerCaseListSchema = z.strictObject({ data: z.array(providerCaseSchema) });
