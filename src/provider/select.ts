// Chooses the provider adapter from the parsed configuration (src/config/, PROVIDER): a real PSP
// over the network, or the sandbox reached through the Worker's own loopback binding (exactly
// its HTTP API, no network). Nothing falls back to the sandbox: a configuration with problems
// has no adapter at all.
import { exports } from "cloudflare:workers";
import { configOf } from "../config/isolate.ts";
import { ProviderConfigError } from "./config.ts";
import { createEfiProvider } from "./efi/adapter.ts";
import type { Fetcher } from "./http-exchange.ts";
import { createHttpProvider } from "./http-provider.ts";
import type { PixProvider } from "./port.ts";

/** The host is never resolved: loopback requests go straight to this Worker's fetch handler. */
export const sandboxProviderBaseUrl = "http://sandbox.internal/sandbox/provider";

/** An EFI_BASE_URL on this host reaches the sandbox's Efí through the loopback binding. */
export const sandboxEfiBaseUrl = "http://sandbox.internal/sandbox/efi";

export function providerFor(env: Env): PixProvider {
  const result = configOf(env);
  if (!result.ok) throw new ProviderConfigError(`no Pix provider: ${result.problems.map((p) => p.message).join("; ")}`);
  const { provider, providerTimeoutMs: timeoutMs } = result.config;
  switch (provider.kind) {
    case "http":
      return createHttpProvider({
        baseUrl: provider.url,
        token: provider.token ?? undefined,
        timeoutMs,
        fetcher: (request) => fetch(request),
      });
    case "sandbox":
      return createHttpProvider({
        baseUrl: sandboxProviderBaseUrl,
        token: provider.token ?? undefined,
        timeoutMs,
        fetcher: (request) => exports.default.fetch(request),
      });
    case "efi":
      return createEfiProvider({
        baseUrl: provider.baseUrl,
        clientId: provider.clientId,
        clientSecret: provider.clientSecret,
        payerKey: provider.payerKey,
        timeoutMs,
        fetcher: efiFetcher(env, new URL(provider.baseUrl)),
      });
  }
}

/**
 * Every Efí call, the token's included, carries the client certificate: through the EFI_CERT
 * mTLS binding in production. It does not work under `wrangler dev`, so locally plain fetch
 * (production refuses to start without it, CONTRACT §1); the sandbox's host uses the loopback.
 */
function efiFetcher(env: Env, url: URL): Fetcher {
  const certificate = env.EFI_CERT;
  if (certificate !== undefined) return (request) => certificate.fetch(request);
  if (url.host === new URL(sandboxEfiBaseUrl).host) return (request) => exports.default.fetch(request);
  return (request) => fetch(request);
}
