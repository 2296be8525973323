// Chooses the provider adapter from configuration: a real PSP over the network when
// PROVIDER_URL is set, else the sandbox reached through the Worker's own loopback binding
// (exactly its HTTP API, no network), else a configuration error.
import { exports } from "cloudflare:workers";
import type { Env } from "../env.ts";
import { ProviderConfigError, providerTimeoutMs, sandboxEnabled } from "./config.ts";
import { createHttpProvider } from "./http-provider.ts";
import type { PixProvider } from "./port.ts";

/** The host is never resolved: loopback requests go straight to this Worker's fetch handler. */
export const sandboxProviderBaseUrl = "http://sandbox.internal/sandbox/provider";

export function providerFor(env: Env): PixProvider {
  const timeoutMs = providerTimeoutMs(env);
  const token = env.PROVIDER_TOKEN;
  if (env.PROVIDER_URL !== undefined && env.PROVIDER_URL !== "") {
    return createHttpProvider({ baseUrl: providerUrl(env.PROVIDER_URL), token, timeoutMs, fetcher: (request) => fetch(request) });
  }
  if (sandboxEnabled(env)) {
    return createHttpProvider({
      baseUrl: sandboxProviderBaseUrl,
      token,
      timeoutMs,
      fetcher: (request) => exports.default.fetch(request),
    });
  }
  throw new ProviderConfigError("no Pix provider: set PROVIDER_URL, or SANDBOX_PROVIDER=on for the sandbox");
}

function providerUrl(raw: string): string {
  const url = URL.parse(raw);
  if (url === null || (url.protocol !== "https:" && url.protocol !== "http:")) {
    throw new ProviderConfigError(`PROVIDER_URL must be an http(s) URL, got "${raw}"`);
  }
  return raw;
}
