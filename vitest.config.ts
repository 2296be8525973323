import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [
    cloudflareTest(({ inject }) => ({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        bindings: {
          DATABASE_URL: inject("databaseUrl"),
          NEON_WS_PROXY: inject("neonWsProxy"),
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
        },
      },
    })),
  ],
  test: {
    globalSetup: ["./test/support/global-setup.ts"],
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
