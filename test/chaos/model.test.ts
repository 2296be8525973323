// Model-based: fast-check generates sequences of transfers (every sandbox behaviour, amounts
// that sometimes overdraw), recurring transfers whose first occurrence runs at once (with its
// evening retry when short), credits, true, lying, replayed and forged webhooks, alarms (fired
// twice), sweeps, object crashes, provider outages, database faults at step boundaries and
// operator decisions. After every command the invariants hold; after the run drains, every
// transfer is completed exactly when the provider made its payment, and balances add up.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fundedAccount } from "../support/api.ts";
import { clearDbFaults, tally } from "../support/faults.ts";
import { takeEntriesSnapshot } from "../support/invariants.ts";
import { filePool } from "../support/pool-test.ts";
import { initialFundsCents, modelCommands } from "./model/arbitraries.ts";
import { accountIds, type Model, type Real, reckon, resolveModelReviews, settleRecurrences } from "./model/world.ts";
import { expectInvariants } from "./support/checks.ts";
import { drain, tallyOutcomes } from "./support/drain.ts";
import { scaled } from "./support/scale.ts";

const pool = filePool(4);

const numRuns = scaled(6, 40);
const maxCommands = scaled(15, 40);

async function newModel(fundsCents: readonly number[]): Promise<Model> {
  const accounts = await Promise.all(
    fundsCents.map(async (cents) => ({
      id: await fundedAccount(cents),
      creditedCents: cents,
      credits: new Map(cents > 0 ? [["seed", cents]] : []),
    })),
  );
  return { accounts, transfers: [], recurrences: [] };
}

/** Faults off, every saga drained, reviews resolved by a careful operator, then the books. */
async function finish(model: Model, real: Real): Promise<void> {
  await clearDbFaults();
  expect(await settleRecurrences(model, real, 30_000), "recurring occurrences that never ran").toEqual([]);
  const ids = model.transfers.map((t) => t.id);
  const drained = await drain(real.pool, ids, { timeoutMs: 60_000, rescueAfterMs: 2_000, label: "model_run" });
  expect(drained.stuck, "sagas still in flight after the run").toEqual([]);
  await resolveModelReviews(model, real);
  await reckon(model, real);
  await expectInvariants(
    real.pool,
    { accountIds: accountIds(model), entriesBefore: real.entriesBefore, overdueMsMax: 0 },
    "at the end of the run",
  );
  await tallyOutcomes(real.pool, ids);
}

describe("the saga under any sequence of clients, providers, operators and faults", () => {
  it(
    "keeps every invariant after every command and settles exactly what the provider paid",
    async () => {
      await fc.assert(
        fc.asyncProperty(initialFundsCents, fc.commands(modelCommands, { maxCommands, size: "max" }), async (funds, commands) => {
          const model = await newModel(funds);
          const real: Real = { pool, entriesBefore: await takeEntriesSnapshot(pool, accountIds(model)) };
          try {
            await fc.asyncModelRun(() => ({ model, real }), commands);
          } finally {
            await clearDbFaults();
          }
          await finish(model, real);
          await tally({ runs: 1 });
        }),
        // A failing run is reported with its seed and command path; shrinking would replay
        // seconds-long runs hundreds of times, so the first failure ends the property.
        { numRuns, endOnFailure: true },
      );
    },
    scaled(150_000, 1_800_000),
  );
});
