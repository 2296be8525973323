// `npm run test:browser`: the operator console in a real browser (Debian's chromium driven by
// playwright-core) against a real `npm start`, with a real HTTP receiver at OPS_ALERT_URL and a
// stand-in Cloudflare Access (its certs at ACCESS_CERTS_URL).
// Seeds data through the APIs, runs the checks, saves a screenshot of each page under
// test-results/console/, stops everything it started, and ends with `N passed, M failed`.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type BrowserContext, chromium } from "playwright-core";
import { accessChecks, logoutCheck } from "./browser/checks-access.ts";
import { alertCheck } from "./browser/checks-alerts.ts";
import { operatorChecks } from "./browser/checks-operators.ts";
import { overviewChecks } from "./browser/checks-overview.ts";
import { pageChecks } from "./browser/checks-pages.ts";
import { providerReconciliationChecks } from "./browser/checks-provider-reconciliation.ts";
import { type Check, runChecks } from "./browser/harness.ts";
import { startReceiver } from "./browser/receiver.ts";
import { Api, seed } from "./browser/seed.ts";
import { startStack } from "./browser/stack.ts";
import { testAccessAud, testAccessTeamDomain } from "./lib/access-assertion.ts";
import { startAccessIssuer } from "./lib/access-issuer.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const screenshotsDir = path.join(root, "test-results", "console");
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const chromiumArgs = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
// This run's own secrets, so it never depends on (or shows) what a developer keeps in .dev.vars.
const secrets = {
  opsToken: "browser-test-ops-token-0123456789abcdef",
  jwtSecret: "browser-test-jwt-secret-0123456789abcdef0123",
  webhookSecret: "whsec_YnJvd3Nlci10ZXN0LXdlYmhvb2stc2VjcmV0LTAxMjM=",
  opsAlertSecret: "whsec_YnJvd3Nlci10ZXN0LW9wcy1hbGVydC1zZWNyZXQtMDEyMw==",
};
// Short saga timings: a processing@sandbox.test transfer reaches needs_review in about 2 s.
const sagaTimings = {
  SAGA_FIRST_CHECK_MS: "100",
  SAGA_MAX_CHECK_MS: "400",
  SAGA_DEADLINE_MS: "1500",
  PROVIDER_TIMEOUT_MS: "400",
  SANDBOX_CONFIRM_MS: "100",
  PROVIDER_NOT_FOUND_GRACE_MS: "500",
};

const checks: Check[] = [
  ...accessChecks,
  ...pageChecks,
  ...providerReconciliationChecks,
  ...overviewChecks,
  alertCheck,
  ...operatorChecks,
  logoutCheck,
];

async function main(): Promise<{ passed: number; failed: number }> {
  if (!existsSync(chromiumPath)) throw new Error(`${chromiumPath} not found: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  await mkdir(screenshotsDir, { recursive: true });
  const receiver = await startReceiver();
  const access = await startAccessIssuer();
  const logPath = path.join(screenshotsDir, "server.log");
  let context: BrowserContext | undefined;
  const userDataDir = await mkdtemp(path.join(tmpdir(), "pix-chromium-"));
  const stack = await startStack(
    root,
    {
      OPS_TOKEN: secrets.opsToken,
      JWT_SECRET: secrets.jwtSecret,
      WEBHOOK_SECRET: secrets.webhookSecret,
      // The sandbox signs with its own key: the same one here, so its webhooks verify.
      SANDBOX_WEBHOOK_SECRET: secrets.webhookSecret,
      OPS_ALERT_URL: `${receiver.origin}/alerts`,
      OPS_ALERT_SECRET: secrets.opsAlertSecret,
      ACCESS_TEAM_DOMAIN: testAccessTeamDomain,
      ACCESS_AUD: testAccessAud,
      ACCESS_CERTS_URL: access.certsUrl,
      ...sagaTimings,
    },
    logPath,
  );
  try {
    console.log(`[browser] npm start ready at ${stack.baseUrl} (server log: ${path.relative(root, logPath)})`);
    const api = new Api(stack.baseUrl, { opsToken: secrets.opsToken, jwtSecret: secrets.jwtSecret });
    const seeded = await seed(api);
    console.log(`[browser] seeded account ${seeded.accountId}: one completed, two in needs_review, one returned, one paid after release`);
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: chromiumPath,
      headless: true,
      args: chromiumArgs,
      viewport: { width: 1280, height: 900 },
    });
    const page = context.pages()[0] ?? (await context.newPage());
    return await runChecks(checks, {
      page,
      context,
      api,
      seeded,
      baseUrl: stack.baseUrl,
      receiver,
      webhookSecret: secrets.webhookSecret,
      opsAlertSecret: secrets.opsAlertSecret,
      screenshotsDir,
      accessPrivateJwk: access.privateJwk,
    });
  } finally {
    await context?.close().catch(() => {});
    const problems = await stack.stop();
    await receiver.close();
    await access.close();
    await rm(userDataDir, { recursive: true, force: true });
    for (const problem of problems) console.error(`[browser] ${problem}`);
    if (problems.length > 0) process.exitCode = 1;
    else console.log("[browser] npm start stopped; nothing left running");
  }
}

try {
  const { passed, failed } = await main();
  console.log(`[browser] screenshots in ${path.relative(root, screenshotsDir)}/`);
  console.log(`${passed} passed, ${failed} failed`);
  if (failed > 0) process.exitCode = 1;
} catch (error) {
  console.error(`[browser] FAILED: ${error instanceof Error ? error.message : String(error)}`);
  console.log(`0 passed, ${checks.length} failed`);
  process.exitCode = 1;
}
