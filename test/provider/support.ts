// Helpers for the provider tests: the sandbox routes called in-process with a per-test env, so a
// test can shorten PROVIDER_TIMEOUT_MS and SANDBOX_CONFIRM_MS without touching wrangler.toml.
import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { sandboxRoutes } from "../../src/http/sandbox.ts";
import { createHttpProvider } from "../../src/provider/http-provider.ts";
import type { PixOrder, PixProvider } from "../../src/provider/port.ts";
import { sandboxInstanceName } from "../../src/provider/sandbox/sandbox-object.ts";

export const sandboxBaseUrl = "http://sandbox.test/sandbox/provider";
export const endToEndIdPattern = /^E\d{8}\d{12}[0-9A-Za-z]{11}$/;

/** The real bindings with the sandbox on and the given timings (strings, as wrangler gives them). */
export function sandboxEnv(overrides: Partial<Env> = {}): Env {
  return { ...env, SANDBOX_PROVIDER: "on", PROVIDER_TOKEN: undefined, ...overrides };
}

/** The sandbox's routes as a fetcher, under `testEnv` instead of the Worker's own. */
export function sandboxFetcher(testEnv: Env): (request: Request) => Promise<Response> {
  const app = new Hono<{ Bindings: Env }>().route("/sandbox", sandboxRoutes);
  return async (request) => app.fetch(request, testEnv);
}

export function sandboxAdapter(testEnv: Env, options: { timeoutMs: number; token?: string }): PixProvider {
  return createHttpProvider({
    baseUrl: sandboxBaseUrl,
    token: options.token,
    timeoutMs: options.timeoutMs,
    fetcher: sandboxFetcher(testEnv),
  });
}

export function orderFor(pixKey: string, overrides: Partial<PixOrder> = {}): PixOrder {
  return {
    idempotencyKey: crypto.randomUUID(),
    amountCents: 2500,
    pixKey,
    pixKeyType: pixKey.includes("@") ? "email" : "evp",
    description: "aluguel",
    ...overrides,
  };
}

export async function sandboxView(testEnv: Env, idempotencyKey: string): Promise<Response> {
  return sandboxFetcher(testEnv)(new Request(`${sandboxBaseUrl}/payments/${idempotencyKey}`));
}

/**
 * Delivers every webhook still pending, so none is in flight when the test file's runtime is
 * torn down (a delivery cut off mid-way surfaces as an unrelated teardown error).
 */
export async function drainSandboxWebhooks(): Promise<void> {
  await env.SANDBOX.getByName(sandboxInstanceName).deliverDueWebhooks(Number.MAX_SAFE_INTEGER);
}
