// What every browser check gets, and how checks run: one at a time, each timed, a failure
// recorded with its message and a screenshot of where the page was, never stopping the rest.
import path from "node:path";
import type { JWK } from "jose";
import type { BrowserContext, Page } from "playwright-core";
import { mintAccessAssertion } from "../lib/access-assertion.ts";
import type { Receiver } from "./receiver.ts";
import type { Api, Seeded } from "./seed.ts";

export interface CheckContext {
  page: Page;
  context: BrowserContext;
  api: Api;
  seeded: Seeded;
  baseUrl: string;
  receiver: Receiver;
  webhookSecret: string;
  /** Signs the needs_review alerts (never WEBHOOK_SECRET). */
  opsAlertSecret: string;
  screenshotsDir: string;
  /** The stand-in Cloudflare Access's signing key, to mint assertions. */
  accessPrivateJwk: JWK;
}

export interface Check {
  name: string;
  run(ctx: CheckContext): Promise<void>;
}

export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/** A PNG under test-results/console/, named by what it shows: the full page, or what the screen shows. */
export async function screenshot(ctx: CheckContext, name: string, fullPage = true): Promise<void> {
  await ctx.page.screenshot({ path: path.join(ctx.screenshotsDir, `${name}.png`), fullPage });
}

/** Waits for a heading with exactly this text: every console page has its title as h1. */
export async function heading(page: Page, text: string): Promise<void> {
  await page.getByRole("heading", { level: 1, name: text, exact: true }).waitFor({ timeout: 10_000 });
}

export async function text(page: Page, content: string | RegExp): Promise<void> {
  await page.getByText(content).first().waitFor({ timeout: 10_000 });
}

/** The session cookie as the browser holds it (undefined when there is none). */
export async function sessionCookie(ctx: CheckContext) {
  return (await ctx.context.cookies(ctx.baseUrl)).find((cookie) => cookie.name === "__Host-console_session");
}

/**
 * Runs `work` as `email` signed in through the stand-in Cloudflare Access, with only the
 * assertion: the token session of the other checks is put aside and restored.
 */
export async function asAccessPerson(ctx: CheckContext, email: string, work: () => Promise<void>): Promise<void> {
  const saved = await ctx.context.cookies();
  await ctx.context.clearCookies();
  await ctx.page.setExtraHTTPHeaders({ "cf-access-jwt-assertion": await mintAccessAssertion(ctx.accessPrivateJwk, { email }) });
  try {
    await work();
  } finally {
    await ctx.page.setExtraHTTPHeaders({});
    await ctx.context.addCookies(saved);
  }
}

export async function runChecks(checks: Check[], ctx: CheckContext): Promise<{ passed: number; failed: number }> {
  let passed = 0;
  let failed = 0;
  for (const check of checks) {
    const startedAtMs = Date.now();
    try {
      await check.run(ctx);
      passed++;
      console.log(`  ✓ ${check.name} (${Date.now() - startedAtMs} ms)`);
    } catch (error) {
      failed++;
      console.log(`  ✗ ${check.name}\n      ${error instanceof Error ? error.message.split("\n").join("\n      ") : String(error)}`);
      await screenshot(ctx, `failed-${passed + failed}`).catch(() => {});
    }
  }
  return { passed, failed };
}
