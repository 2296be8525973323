import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

/**
 * The Worker under test; chaos tests reach Postgres through the fault proxy instead, and the
 * events project delivers outbound events to the tests' own receiver (EVENTS_URL).
 */
function testWorker(proxy: "neonWsProxy" | "faultWsProxy", events = false) {
  return cloudflareTest(({ inject }) => ({
    wrangler: { configPath: "./wrangler.toml" },
    miniflare: {
      bindings: {
        DATABASE_URL: inject("databaseUrl"),
        NEON_WS_PROXY: inject(proxy),
        ...(proxy === "faultWsProxy" ? { FAULT_CONTROL_URL: inject("faultControlUrl") } : {}),
        JWT_SECRET: "test-jwt-secret-0123456789abcdef0123456789",
        WEBHOOK_SECRET: "whsec_dGVzdC13ZWJob29rLXNlY3JldC0wMTIzNDU2Nzg5",
        OPS_TOKEN: "test-ops-token",
        // Short saga timings so whole sagas (deadline included) run in seconds.
        SAGA_FIRST_CHECK_MS: "150",
        SAGA_MAX_CHECK_MS: "600",
        SAGA_DEADLINE_MS: "4000",
        PROVIDER_TIMEOUT_MS: "400",
        PROVIDER_NOT_FOUND_GRACE_MS: "1200",
        SANDBOX_CONFIRM_MS: "100",
        ...(events
          ? {
              EVENTS_URL: inject("eventsUrl"),
              EVENTS_CONTROL_URL: inject("eventsControlUrl"),
              EVENTS_SECRET: "whsec_dGVzdC1ldmVudHMtc2VjcmV0LTAxMjM0NTY3ODk=",
              EVENTS_RETRY_FIRST_MS: "100",
            }
          : {}),
      },
    },
  }));
}

const timeouts = { testTimeout: 30_000, hookTimeout: 60_000 };

export default defineConfig({
  test: {
    // One PostgreSQL and its proxies for both projects (a project's own setup would start another).
    globalSetup: ["./test/support/global-setup.ts"],
    projects: [
      {
        plugins: [testWorker("neonWsProxy")],
        test: { name: "suite", include: ["test/**/*.test.ts"], exclude: ["test/chaos/**", "test/events/delivery/**"], ...timeouts },
      },
      {
        plugins: [testWorker("neonWsProxy", true)],
        test: { name: "events", include: ["test/events/delivery/**/*.test.ts"], ...timeouts },
      },
      {
        // Faults are global to the fault proxy: chaos files run one at a time, after the suite.
        // `npm test` runs their short versions; `npm run chaos` runs only this project, heavy.
        plugins: [testWorker("faultWsProxy")],
        test: { name: "chaos", include: ["test/chaos/**/*.test.ts"], fileParallelism: false, sequence: { groupOrder: 1 }, ...timeouts },
      },
    ],
  },
});
