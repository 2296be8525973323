// The degraded-PSP alert's wiring: the sweep (every minute, and POST /ops/sweep) observes the
// provider's health and stores it in the provider configuration's object, which GET
// /ops/overview reads; a fault on the way is logged, never thrown into the sweep. The alert
// itself, driven by the sandbox's outage, is test/chaos/provider-degraded.test.ts.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { noticeProviderHealth } from "../../src/alerts/provider-degraded.ts";
import type { ProviderHealth } from "../../src/alerts/provider-health-object.ts";
import { providerConfiguration } from "../../src/alerts/provider-misconfigured.ts";
import { opsCall } from "../support/api.ts";
import { captureLogEvents } from "../support/logs.ts";

afterEach(() => vi.restoreAllMocks());

const sandboxHealth = () => env.PROVIDER_HEALTH.getByName(providerConfiguration(env));

describe("the provider's health in the sweep", () => {
  it("is observed by POST /ops/sweep and shown by GET /ops/overview", async () => {
    await runInDurableObject(sandboxHealth(), (_: ProviderHealth, state) => state.storage.deleteAll());
    expect((await opsCall("/ops/sweep", { method: "POST" })).status).toBe(200);
    const stored = await runInDurableObject(sandboxHealth(), (_: ProviderHealth, state) => state.storage.get("state"));
    expect(stored).toBeDefined();
    const overview = await (await opsCall("/ops/overview?minutes=5")).json<{
      provider: { degraded: boolean; degraded_since: string | null };
    }>();
    const now = await sandboxHealth().state();
    expect(overview.provider).toMatchObject({ degraded: now.degradedSinceMs !== null });
  });

  it("logs a fault reading the figures and answers null, never throwing into the sweep", async () => {
    const faults = captureLogEvents("provider_health_fault");
    const broken = { query: () => Promise.reject(new Error("Connection terminated unexpectedly")) };
    expect(await noticeProviderHealth(env, { waitUntil: () => undefined }, broken, { scope: `test-${crypto.randomUUID()}` })).toBeNull();
    expect(faults()).toEqual([expect.objectContaining({ message: "Connection terminated unexpectedly" })]);
  });
});
