// The daily cron: the scheduled handler tells the reconciliation cron from the sweeper's and
// runs the previous São Paulo day, recorded as the `cron` actor.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { previousSaoPauloDay } from "../../src/reconciliation/window.ts";
import worker from "../../src/worker.ts";
import { opsCall } from "../support/api.ts";

describe("the daily provider reconciliation", () => {
  it("runs for the previous São Paulo day on its cron, as the cron actor", async () => {
    const scheduledTime = Date.now();
    const waits: Promise<unknown>[] = [];
    const controller: ScheduledController = { cron: "30 3 * * *", scheduledTime, noRetry: () => undefined };
    const ctx = {
      waitUntil: (p: Promise<unknown>) => void waits.push(p),
      passThroughOnException: () => undefined,
      props: {},
    } as ExecutionContext;
    await worker.scheduled(controller, env, ctx);
    await Promise.all(waits);
    const latest = await (await opsCall("/ops/reconciliation/provider/latest")).json<{
      actor: string;
      from: string;
      to: string;
    }>();
    const day = previousSaoPauloDay(scheduledTime);
    expect(latest).toMatchObject({ actor: "cron", from: new Date(day.fromMs).toISOString(), to: new Date(day.toMs).toISOString() });
  });
});
