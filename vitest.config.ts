import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { testAccessAud, testAccessTeamDomain } from "./scripts/lib/access-assertion.ts";

/** The Efí adapter against the sandbox's Efí dialect, through the loopback (src/provider/select.ts). */
const efiBindings = {
  PROVIDER: "efi",
  EFI_BASE_URL: "http://sandbox.internal/sandbox/efi",
  EFI_CLIENT_ID: "sandbox-client-id",
  EFI_CLIENT_SECRET: "sandbox-client-secret",
  EFI_PAYER_KEY: "pagador@sandbox.test",
  // Efí asks for one send at a time; 2 here so the storm test sees the limit, not serial sends.
  PROVIDER_SEND_CONCURRENCY: "2",
};

/**
 * The Worker under test; chaos tests reach Postgres through the fault proxy instead, and the
 * events project delivers outbound events to the tests' own receiver (EVENTS_URL).
 */
function testWorker(
  proxy: "neonWsProxy" | "faultWsProxy",
  extraBindings: Record<string, string> = {},
  events = false,
  database: "databaseUrl" | "clockDatabaseUrl" = "databaseUrl",
) {
  return cloudflareTest(({ inject }) => ({
    // The local environment of wrangler.toml: the sandbox on (the top level is production).
    wrangler: { configPath: "./wrangler.toml", environment: "local" },
    miniflare: {
      bindings: {
        DATABASE_URL: inject(database),
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
        EFI_WEBHOOK_HMAC: "test-efi-hmac-0123456789abcdef",
        EFI_WEBHOOK_IPS: "34.193.116.226, 203.0.113.9",
        // Short saga timings so whole sagas (deadline included) run in seconds.
        SAGA_FIRST_CHECK_MS: "150",
        SAGA_MAX_CHECK_MS: "600",
        SAGA_DEADLINE_MS: "4000",
        PROVIDER_TIMEOUT_MS: "400",
        PROVIDER_NOT_FOUND_GRACE_MS: "1200",
        SANDBOX_CONFIRM_MS: "100",
        ...extraBindings,
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

/** The runner closed a file's channel while a call on it (a log line, a module lookup) was still in flight. */
function isCutOffAtTeardown(error: { name?: string; message?: string }): boolean {
  return error.name === "EnvironmentTeardownError" && /Closing rpc while "\w+" was pending/.test(error.message ?? "");
}

const timeouts = { testTimeout: 30_000, hookTimeout: 60_000 };

/** Pure files: no workerd, no database (docs/testing.md). */
const unitFiles = "test/**/*.unit.test.ts";
/** Node code that needs the database (the migrator): Node, with the tests' cluster. */
const nodeFiles = "test/**/*.node.test.ts";
/** Files that move the test clock: their own database and Worker (docs/testing.md). */
const clockFiles = "test/clock/**";

/**
 * The workerd projects share their Worker between files (`isolate: false`): a file must not
 * count on a fresh object, a fresh database or fresh module state, only on ids of its own.
 */
const sharedWorker = { isolate: false, ...timeouts };

export default defineConfig({
  test: {
    // One PostgreSQL and its proxies for every project that needs them (a project's own setup
    // would start another); a run of the unit project alone starts none.
    globalSetup: ["./test/support/global-setup.ts"],
    // Two cores: one worker on each (vitest's default leaves one idle).
    maxWorkers: 2,
    // A saga's object may still be working when its test file ends (an alarm's last check): the
    // runner then cuts off what it was doing on the file's channel, a log line ("Closing rpc
    // while onUserConsoleLog was pending") or a module lookup ("... resolve ..."). That error
    // comes only after every test of the file has reported, so it cannot hide a failed
    // assertion; every other unhandled error still fails the run.
    onUnhandledError: (error) => !isCutOffAtTeardown(error),
    // Logs of passing tests are noise in CI; a failing test still prints everything it logged.
    silent: "passed-only",
    projects: [
      {
        // Pure code in Node: the inner loop (`npm run test:unit`).
        test: { name: "unit", include: [unitFiles], isolate: false, ...timeouts },
      },
      {
        test: { name: "node", include: [nodeFiles], ...timeouts },
      },
      {
        plugins: [testWorker("neonWsProxy")],
        test: {
          name: "suite",
          include: ["test/**/*.test.ts"],
          exclude: [unitFiles, nodeFiles, clockFiles, "test/chaos/**", "test/efi-sandbox/**", "test/events/delivery/**", "test/devices/**"],
          ...sharedWorker,
        },
      },
      {
        // The same Worker with PROVIDER=efi: the sandbox's rows through the Efí adapter.
        plugins: [testWorker("neonWsProxy", efiBindings)],
        test: { name: "efi", include: ["test/efi-sandbox/**/*.test.ts"], exclude: ["test/efi-sandbox/**/*storm*"], ...sharedWorker },
      },
      {
        // The send gate's storm: 200 sends two at a time outlast the suite's 4 s deadline, and a
        // send timed out under load would keep its slot a second past its timeout.
        plugins: [testWorker("neonWsProxy", { ...efiBindings, SAGA_DEADLINE_MS: "600000", PROVIDER_TIMEOUT_MS: "10000" })],
        test: { name: "efi-storm", include: ["test/efi-sandbox/**/*storm*.test.ts"], ...sharedWorker },
      },
      {
        // DEVICE_RULES on (off in the local environment): tokens name their device and an
        // unregistered one is capped; a client's registration takes effect 2 s after it is asked.
        // The night caps never bind here, so the device cap is seen alone at any hour.
        plugins: [
          testWorker("neonWsProxy", {
            DEVICE_RULES: "on",
            DEVICE_REGISTRATION_DELAY_MS: "2000",
            NIGHT_TRANSFER_LIMIT_CENTS: "100000000",
            NIGHT_TOTAL_LIMIT_CENTS: "100000000",
          }),
        ],
        test: { name: "devices", include: ["test/devices/**/*.test.ts"], ...sharedWorker },
      },
      {
        plugins: [testWorker("neonWsProxy", {}, true)],
        test: { name: "events", include: ["test/events/delivery/**/*.test.ts"], ...sharedWorker },
      },
      {
        // The test clock is global to its database: files that move it get a database and a
        // Worker of their own, and run one at a time (after the parallel group: vitest runs a
        // one-at-a-time project in a group of its own), so no other file's calendar jumps.
        plugins: [testWorker("neonWsProxy", {}, false, "clockDatabaseUrl")],
        test: {
          name: "clock",
          include: [`${clockFiles}/*.test.ts`],
          fileParallelism: false,
          sequence: { groupOrder: 1 },
          ...sharedWorker,
        },
      },
      {
        // Faults are global to the fault proxy: chaos files run one at a time, after the suite.
        // `npm test` runs their short versions; `npm run chaos` runs only this project, heavy.
        // Events are delivered here too: chaos checks that delivery completes once faults stop.
        plugins: [testWorker("faultWsProxy", {}, true)],
        test: { name: "chaos", include: ["test/chaos/**/*.test.ts"], fileParallelism: false, sequence: { groupOrder: 1 }, ...sharedWorker },
      },
    ],
  },
});
