import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { testAccessAud, testAccessTeamDomain } from "./scripts/lib/access-assertion.ts";

/** The Worker under test; chaos tests reach Postgres through the fault proxy instead. */
function testWorker(proxy: "neonWsProxy" | "faultWsProxy") {
  return cloudflareTest(({ inject }) => ({
    // The local environment of wrangler.toml: the sandbox on (the top level is production).
    wrangler: { configPath: "./wrangler.toml", environment: "local" },
    miniflare: {
      bindings: {
        DATABASE_URL: inject("databaseUrl"),
        NEON_WS_PROXY: inject(proxy),
        ...(proxy === "faultWsProxy" ? { FAULT_CONTROL_URL: inject("faultControlUrl") } : {}),
        JWT_SECRET: "test-jwt-secret-0123456789abcdef0123456789",
        WEBHOOK_SECRET: "whsec_dGVzdC13ZWJob29rLXNlY3JldC0wMTIzNDU2Nzg5",
        // The sandbox signs with its own key; WEBHOOK_SECRET holds the same one so they verify.
        SANDBOX_WEBHOOK_SECRET: "whsec_dGVzdC13ZWJob29rLXNlY3JldC0wMTIzNDU2Nzg5",
        OPS_ALERT_SECRET: "whsec_dGVzdC1vcHMtYWxlcnQtc2VjcmV0LTAxMjM0NTY3ODk=",
        OPS_TOKEN: "test-ops-token-0123456789abcdef0123456789",
        // Operators as people: a stand-in Cloudflare Access started by the global setup.
        ACCESS_TEAM_DOMAIN: testAccessTeamDomain,
        ACCESS_AUD: testAccessAud,
        ACCESS_CERTS_URL: inject("accessCertsUrl"),
        // Four eyes above R$ 1,000,000.00 here: tests fund accounts up to that with ops-token.
        OPS_CREDIT_APPROVAL_ABOVE_CENTS: "100000000",
        // Short saga timings so whole sagas (deadline included) run in seconds.
        SAGA_FIRST_CHECK_MS: "150",
        SAGA_MAX_CHECK_MS: "600",
        SAGA_DEADLINE_MS: "4000",
        PROVIDER_TIMEOUT_MS: "400",
        PROVIDER_NOT_FOUND_GRACE_MS: "1200",
        SANDBOX_CONFIRM_MS: "100",
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
        test: { name: "suite", include: ["test/**/*.test.ts"], exclude: ["test/chaos/**"], ...timeouts },
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
