// /healthz's database check is kept a few seconds per isolate: probes within that window get the
// kept answer without a connection; the clock is driven, never waited on.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { type DatabaseHealth, HealthCache, healthCheckTtlMs } from "../../src/http/health-cache.ts";
import worker from "../../src/worker.ts";

function countingProbe(answers: DatabaseHealth[]) {
  const probe = { calls: 0, run: async (): Promise<DatabaseHealth> => answers[probe.calls++] ?? "ok" };
  return probe;
}

describe("HealthCache", () => {
  it("probes once, answers from memory until the window ends, then probes again", async () => {
    const cache = new HealthCache();
    const probe = countingProbe(["ok", "unavailable"]);
    expect(await cache.read(1_000, probe.run)).toBe("ok");
    expect(await cache.read(1_000 + healthCheckTtlMs - 1, probe.run)).toBe("ok");
    expect(probe.calls).toBe(1);
    expect(await cache.read(1_000 + healthCheckTtlMs, probe.run)).toBe("unavailable");
    expect(probe.calls).toBe(2);
  });

  it("keeps an outage too, so a database that is down is not hammered", async () => {
    const cache = new HealthCache();
    const probe = countingProbe(["unavailable", "ok"]);
    expect(await cache.read(0, probe.run)).toBe("unavailable");
    expect(await cache.read(10, probe.run)).toBe("unavailable");
    expect(probe.calls).toBe(1);
  });

  it("probes again when the clock goes back rather than trusting a future answer", async () => {
    const cache = new HealthCache();
    const probe = countingProbe(["ok", "ok"]);
    await cache.read(10_000, probe.run);
    await cache.read(9_000, probe.run);
    expect(probe.calls).toBe(2);
  });
});

describe("GET /healthz", () => {
  it("answers a second probe within the window without connecting to the database", async () => {
    const testEnv: Env = { ...env };
    const get = async () => {
      const ctx = createExecutionContext();
      const response = await worker.fetch(new Request("http://pix.test/healthz"), testEnv, ctx);
      await waitOnExecutionContext(ctx);
      return response;
    };
    expect((await get()).status).toBe(200);
    // Nothing listens here: a connection attempt would answer 503.
    testEnv.DATABASE_URL = "postgres://nobody:nothing@127.0.0.1:1/none";
    const second = await get();
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual({ status: "ok" });
  });
});
