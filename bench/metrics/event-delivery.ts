// Outbound events (CONTRACT §6): how long after its commit an event reaches the fintech's
// receiver, against a bare POST of the same body to the same receiver from the bench. Each
// transfer is created and left to reach `submitted` before the next, so every delivery is
// measured alone. The event's `occurred_at` is its transaction's time, a little before the
// commit: the latency is, if anything, overstated by the statement's own time.
import { randomUUID } from "node:crypto";
import { startEventReceiver } from "../../scripts/lib/event-receiver.ts";
import { sleep } from "../../src/lib/sleep.ts";
import { accountIds, seedAccountsIn } from "../lib/accounts.ts";
import { benchSecrets, StackClient } from "../lib/api.ts";
import type { BenchContext } from "../lib/context.ts";
import { type MetricRow, reported } from "../lib/results.ts";
import { stackVars, webhookDrivenTimings } from "../lib/stack-vars.ts";
import { summarise } from "../lib/stats.ts";
import { startWorkerStack } from "../lib/worker-stack.ts";
import { waitForStates } from "./transfer-states.ts";

const transfers = 40;
const accounts = 10;
const stateWaitMs = 60_000;
const deliveryWaitMs = 30_000;
/** started, funds_reserved, submitted: the events of a transfer the bench leaves submitted. */
const eventsPerTransfer = 3;

async function bareDeliveriesMs(url: string, body: string, count: number): Promise<number[]> {
  const samplesMs: number[] = [];
  for (let i = 0; i < count; i++) {
    const startedAtMs = performance.now();
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", "webhook-id": `evt_${randomUUID()}` },
      body,
    });
    await response.body?.cancel();
    samplesMs.push(performance.now() - startedAtMs);
  }
  return samplesMs;
}

export async function measureEventDelivery(context: BenchContext, root: string): Promise<MetricRow[]> {
  const ids = accountIds("bench-events", accounts);
  await seedAccountsIn(context.cluster, ids);
  const receiver = await startEventReceiver();
  context.own(receiver.close);
  try {
    const secrets = benchSecrets();
    const vars = stackVars(context.cluster, secrets, webhookDrivenTimings);
    vars.set("EVENTS_URL", receiver.url);
    vars.set("EVENTS_SECRET", `whsec_${Buffer.from(`bench-events-${randomUUID()}`).toString("base64")}`);
    const stack = await startWorkerStack(root, context.workDir, "events", vars);
    context.own(stack.stop);
    try {
      const api = new StackClient(stack.baseUrl, secrets);
      const transferIds: string[] = [];
      for (let i = 0; i < transfers; i++) {
        const transferId = await api.createTransfer(ids[i % ids.length] ?? "", 100, "silent@sandbox.test");
        transferIds.push(transferId);
        await waitForStates(context, [transferId], ["submitted"], stateWaitMs);
      }
      const giveUpAtMs = Date.now() + deliveryWaitMs;
      const mine = () => receiver.received.filter((r) => r.transfer_id !== null && transferIds.includes(r.transfer_id));
      while (mine().length < transfers * eventsPerTransfer && Date.now() < giveUpAtMs) await sleep(100);
      const latenciesMs = mine().map((r) => r.at_ms - Date.parse((JSON.parse(r.body) as { occurred_at: string }).occurred_at));
      if (latenciesMs.length === 0) throw new Error("no event reached the receiver");
      const sampleBody = mine()[0]?.body ?? "{}";
      const delivered = summarise(latenciesMs);
      const bare = summarise(await bareDeliveriesMs(receiver.url, sampleBody, latenciesMs.length));
      return [
        reported("events: delivered / expected", latenciesMs.length / (transfers * eventsPerTransfer), "ratio"),
        reported("events: commit -> received, p50", delivered.p50Ms, "ms"),
        reported("events: commit -> received, p99", delivered.p99Ms, "ms"),
        reported("events: bare POST to the same receiver, p50", bare.p50Ms, "ms"),
        reported("events: bare POST to the same receiver, p99", bare.p99Ms, "ms"),
      ];
    } finally {
      await stack.stop();
    }
  } finally {
    await receiver.close();
  }
}
