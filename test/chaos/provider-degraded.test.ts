// A degraded PSP is noticed (issue 31): the sandbox's outage makes the sagas' sends and status
// checks unknown; the provider's health sees at least 10 calls, most of them unknown, and sends
// one signed `provider.degraded` alert however often it looks; GET /ops/overview says degraded;
// once the calls are answered again, one `provider.recovered`. The outage is global, so the file
// runs in the chaos project, alone. The health is observed over a window that starts with this
// test's own burst (the sweeper's is the last 5 minutes, which here would also hold the calls of
// the files before this one) and, for the alerts, under a scope of the test's own.
import { env } from "cloudflare:test";
import { describe, expect } from "vitest";
import { noticeProviderHealth } from "../../src/alerts/provider-degraded.ts";
import type { HealthObservation } from "../../src/alerts/provider-health.ts";
import { sleep } from "../../src/lib/sleep.ts";
import { verifyWebhook } from "../../src/lib/webhook-signature.ts";
import { call, createTransfer, fundedAccount, opsCall, waitForFinalState } from "../support/api.ts";
import { sandboxKeys } from "../support/faults.ts";
import { alertReceiver } from "../support/logs.ts";
import { poolTest } from "../support/pool-test.ts";

const it = poolTest(2);
const alerting = { ...env, OPS_ALERT_URL: "https://alerts.example/hook" };

function setOutage(durationMs: number): Promise<Response> {
  return call("/sandbox/provider/outage", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ duration_ms: durationMs }),
  });
}

async function alertBodies(received: readonly Request[]): Promise<{ type: string; data: Record<string, unknown> }[]> {
  return Promise.all(
    received.map(async (request) => {
      const rawBody = new Uint8Array(await request.clone().arrayBuffer());
      const verified = await verifyWebhook({
        secrets: env.OPS_ALERT_SECRET,
        headers: request.headers,
        rawBody,
        nowSeconds: Date.now() / 1000,
      });
      expect(verified).toEqual({ ok: true });
      return JSON.parse(new TextDecoder().decode(rawBody));
    }),
  );
}

async function providerNow(): Promise<{ degraded: boolean; degraded_since: string | null; calls: number }> {
  const overview = await (await opsCall("/ops/overview?minutes=5")).json<{
    provider: { degraded: boolean; degraded_since: string | null; calls: number };
  }>();
  return overview.provider;
}

/** Observes until `done` (bounded): each look counts the calls recorded since `sinceMs`. */
async function observeUntil(
  look: () => Promise<HealthObservation | null>,
  done: (observation: HealthObservation) => boolean,
): Promise<HealthObservation> {
  const giveUpAtMs = Date.now() + 20_000;
  for (;;) {
    const observation = await look();
    if (observation !== null && done(observation)) return observation;
    if (Date.now() > giveUpAtMs) throw new Error(`health never reached the expected state: ${JSON.stringify(observation)}`);
    await sleep(200);
  }
}

describe("a degraded PSP", () => {
  it("sends one provider.degraded alert during an outage, shows it in the overview, then one provider.recovered", async ({ pool }) => {
    const scope = `test-${crypto.randomUUID()}`;
    const receiver = alertReceiver();
    const burstStartMs = Date.now();
    const look = (sinceMs: number) => noticeProviderHealth(alerting, receiver.runtime, pool, { sinceMs, scope });
    // The provider configuration's own state, as the sweeper keeps it (no OPS_ALERT_URL here: logged only).
    const lookAsSweeper = (sinceMs: number) => noticeProviderHealth(env, { waitUntil: () => undefined }, pool, { sinceMs });

    // The outage outlasts the test's looks; the sagas' sends and checks are all unknown meanwhile.
    expect((await setOutage(60_000)).status).toBe(200);
    const accountId = await fundedAccount(100_000);
    const transfers = await Promise.all(
      Array.from({ length: 4 }, async () =>
        (await createTransfer(accountId, { amount_cents: 1_000, ...sandboxKeys.silent })).json<{ id: string }>(),
      ),
    );
    const degraded = await observeUntil(
      () => look(burstStartMs),
      (observation) => observation.state.degradedSinceMs !== null,
    );
    expect(degraded.alert?.kind).toBe("degraded");
    // Looking again while it lasts sends nothing more.
    expect((await look(burstStartMs))?.alert).toBeNull();
    expect((await look(burstStartMs))?.alert).toBeNull();
    // The overview shows the provider configuration's state.
    await lookAsSweeper(burstStartMs);
    const shown = await providerNow();
    expect(shown.degraded).toBe(true);
    expect(Date.parse(shown.degraded_since ?? "")).toBeGreaterThanOrEqual(burstStartMs);

    // The PSP answers again; five minutes later the window holds only answered calls: here, a
    // window that starts when the outage ended.
    expect((await setOutage(0)).status).toBe(200);
    const answeredSinceMs = Date.now();
    await Promise.all(transfers.map((transfer) => waitForFinalState(accountId, transfer.id, 20_000)));
    const recovered = await observeUntil(
      () => look(answeredSinceMs),
      (observation) => observation.state.degradedSinceMs === null,
    );
    expect(recovered.alert).toEqual({ kind: "recovered", spellSinceMs: degraded.state.degradedSinceMs });
    expect((await look(answeredSinceMs))?.alert).toBeNull();
    await lookAsSweeper(answeredSinceMs);
    expect(await providerNow()).toMatchObject({ degraded: false, degraded_since: null });

    await receiver.settled();
    const bodies = await alertBodies(receiver.received);
    expect(bodies.map((body) => body.type)).toEqual(["provider.degraded", "provider.recovered"]);
    const [degradedAlert] = bodies;
    expect(degradedAlert?.data).toMatchObject({ configuration: scope, window_minutes: 5 });
    expect(Number(degradedAlert?.data.calls)).toBeGreaterThanOrEqual(10);
    expect(Number(degradedAlert?.data.unknown) * 2).toBeGreaterThan(Number(degradedAlert?.data.calls));
    expect(receiver.received.map((request) => request.headers.get("webhook-id"))).toEqual([
      `alert_provider_degraded_${scope}_${degraded.state.degradedSinceMs}`,
      `alert_provider_recovered_${scope}_${degraded.state.degradedSinceMs}`,
    ]);
  });
});
