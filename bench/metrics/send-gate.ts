// What the send gate costs (PROVIDER_SEND_CONCURRENCY): the same burst of transfers through
// `wrangler dev` against a provider that answers every call in 50 ms (paced-provider.ts), once
// with no gate (0) and once with one send at a time (1), the limit Efí asks for. One at a time,
// 50 ms each, bounds the burst at 20 sends/s: the gate's own cost is how far below that bound it
// falls (a slot left idle between one send's end and the next one's start). The provider counts
// the sends it holds at once, so the bound is seen where it matters. A third burst, one at a
// time, has a few sends that hang until the Worker's timeout: the provider reports how long
// after each timeout the next send arrived, the time the gate stood idle behind a send nobody
// was waiting for any more (the slot's stated margin, src/provider/send-gate/slot.ts).
import path from "node:path";
import { abandonedSendMarginMs } from "../../src/provider/send-gate/send-slot.ts";
import { accountIds, seedAccounts } from "../lib/accounts.ts";
import { benchSecrets, StackClient } from "../lib/api.ts";
import type { BenchContext } from "../lib/context.ts";
import { benchPool } from "../lib/db.ts";
import { hungPixKey, type PacedProvider, startPacedProvider } from "../lib/paced-provider.ts";
import { atMost, type MetricRow, reported } from "../lib/results.ts";
import { polledTimings, stackVars } from "../lib/stack-vars.ts";
import { percentile } from "../lib/stats.ts";
import { benchAmountCents } from "../lib/transfer-shape.ts";
import { startWorkerStack } from "../lib/worker-stack.ts";
import { waitForStates } from "./transfer-states.ts";

/** How long the paced provider takes to answer a send: long enough that sends overlap. */
const answerDelayMs = 50;
const burstTransfers = 200;
/** Not measured: the first transfers pay for the isolate's and the pool's warm-up. */
const warmupTransfers = 10;
const clients = 16;
const drainWaitMs = 2 * 60_000;
const pixKey = "ana@example.com";
/**
 * The Worker's PROVIDER_TIMEOUT_MS here: far above the provider's 50 ms, so only hung sends time
 * out. A dead holder's lease would be 4 of these plus 5 s: what a hung send cost the gate before.
 */
const providerTimeoutMs = 1_000;
/** Every this many transfers of the hung burst, one hangs: 5 in 200, each with a queue behind it. */
const hungEvery = 40;
const hungOffset = 10;

interface Burst {
  completedPerS: number;
  sendsInFlightMax: number;
}

/** Creates `ids.length` transfers, `clients` at a time, one per account; `keyOf` picks each one's Pix key. */
async function createAll(api: StackClient, ids: readonly string[], keyOf: (index: number) => string = () => pixKey): Promise<string[]> {
  const created: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < ids.length) {
        const index = next++;
        created.push(await api.createTransfer(ids[index] ?? "", benchAmountCents, keyOf(index)));
      }
    }),
  );
  return created;
}

const withHungSends = (index: number): string => (index % hungEvery === hungOffset ? hungPixKey : pixKey);

async function burst(context: BenchContext, root: string, provider: PacedProvider, concurrency: number, hung = false): Promise<Burst> {
  const prefix = `bench-gate-${concurrency}${hung ? "-hung" : ""}`;
  const warmupIds = accountIds(`${prefix}-warm`, warmupTransfers);
  const burstIds = accountIds(prefix, burstTransfers);
  const pool = benchPool(context.cluster, 1, "bench-gate-watch");
  try {
    await seedAccounts(pool, [...warmupIds, ...burstIds]);
    const secrets = benchSecrets();
    const vars = stackVars(context.cluster, secrets, {
      ...polledTimings,
      PROVIDER: "http",
      PROVIDER_URL: provider.baseUrl,
      PROVIDER_SEND_CONCURRENCY: String(concurrency),
      PROVIDER_TIMEOUT_MS: String(providerTimeoutMs),
    });
    const stack = await startWorkerStack(root, context.workDir, prefix.replace("bench-gate", "send-gate"), vars);
    context.own(stack.stop);
    try {
      const api = new StackClient(stack.baseUrl, secrets);
      // Isolates, the gate's object and the connections warm up outside the measured burst.
      await waitForStates(context, await createAll(api, warmupIds), ["completed"], drainWaitMs);
      provider.resetSendsInFlightMax();
      const transferIds = await createAll(api, burstIds, hung ? withHungSends : undefined);
      await waitForStates(context, transferIds, ["completed"], drainWaitMs);
      const { rows } = await pool.query<{ span_ms: number }>(
        `SELECT extract(epoch FROM max(updated_at) - min(created_at)) * 1000 AS span_ms FROM transfers WHERE id = ANY($1::uuid[])`,
        [transferIds],
      );
      const spanMs = Number(rows[0]?.span_ms ?? Number.NaN);
      context.log(`${prefix}: ${transferIds.length} transfers created -> completed in ${spanMs.toFixed(0)} ms`);
      return { completedPerS: (transferIds.length / spanMs) * 1000, sendsInFlightMax: provider.sendsInFlightMax() };
    } finally {
      await stack.stop();
      context.log(`${prefix}: wrangler log at ${path.basename(stack.logFile)}`);
    }
  } finally {
    await pool.end();
  }
}

export async function measureSendGate(context: BenchContext, root: string): Promise<MetricRow[]> {
  const provider = await startPacedProvider(answerDelayMs, providerTimeoutMs);
  context.own(provider.close);
  try {
    const open = await burst(context, root, provider, 0);
    const gated = await burst(context, root, provider, 1);
    const hung = await burst(context, root, provider, 1, true);
    const idleMs = provider.idleAfterHungMs();
    context.log(`send gate: idle after each hung send ${idleMs.map((ms) => ms.toFixed(0)).join(", ")} ms`);
    const boundPerS = 1000 / answerDelayMs;
    const hungLabel = `${idleMs.length} hung sends, PROVIDER_TIMEOUT_MS=${providerTimeoutMs}`;
    return [
      reported(`send gate: completed/s, no gate (0), provider answers in ${answerDelayMs} ms`, open.completedPerS, "transfers/s"),
      reported("send gate: completed/s, PROVIDER_SEND_CONCURRENCY=1", gated.completedPerS, "transfers/s"),
      reported(`send gate: gate 1 rate / one-at-a-time bound (${boundPerS}/s)`, gated.completedPerS / boundPerS, "ratio"),
      reported("send gate: gate 1 rate / no gate rate", gated.completedPerS / open.completedPerS, "ratio"),
      atMost("send gate: sends the provider held at once, PROVIDER_SEND_CONCURRENCY=1", gated.sendsInFlightMax, "sends", 1),
      reported("diag send gate: sends the provider held at once, no gate", open.sendsInFlightMax, "sends"),
      // Idle past the timeout: the stated margin plus the hand-off, far below a dead holder's lease.
      atMost(`send gate: idle after a hung send's timeout, max (${hungLabel})`, Math.max(...idleMs), "ms", 2 * abandonedSendMarginMs),
      reported("diag send gate: idle after a hung send's timeout, median", percentile(idleMs, 0.5), "ms"),
      reported(`send gate: completed/s, PROVIDER_SEND_CONCURRENCY=1, ${hungLabel}`, hung.completedPerS, "transfers/s"),
      atMost("send gate: sends the provider held at once, gate 1, with hung sends", hung.sendsInFlightMax, "sends", 1),
    ];
  } finally {
    await provider.close();
  }
}
