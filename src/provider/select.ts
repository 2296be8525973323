// Chooses the provider adapter from configuration: Efí when PROVIDER=efi; a real PSP over the
// network when PROVIDER_URL is set; else the sandbox reached through the Worker's own loopback
// binding (exactly its HTTP API, no network); else a configuration error.
import { exports } from "cloudflare:workers";
import type { Env } from "../env.ts";
import { ProviderConfigError, providerTimeoutMs, sandboxEnabled } from "./config.ts";
import { createEfiProvider } from "./efi/adapter.ts";
import type { Fetcher } from "./http-exchange.ts";
import { createHttpProvider } from "./http-provider.ts";
import type { PixProvider } from "./port.ts";

/** The host is never resolved: loopback requests go straight to this Worker's fetch handler. */
export const sandboxProviderBaseUrl = "http://sandbox.internal/sandbox/provider";

/** An EFI_BASE_URL on this host reaches the sandbox's Efí through the loopback binding. */
export const sandboxEfiBaseUrl = "http://sandbox.internal/sandbox/efi";

export function providerFor(env: Env): PixProvider {
  const timeoutMs = providerTimeoutMs(env);
  if (env.PROVIDER === "efi") return efiProvider(env, timeoutMs);
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

function efiProvider(env: Env, timeoutMs: number): PixProvider {
  const baseUrl = env.EFI_BASE_URL ?? "";
  const clientId = env.EFI_CLIENT_ID ?? "";
  const clientSecret = env.EFI_CLIENT_SECRET ?? "";
  const payerKey = env.EFI_PAYER_KEY ?? "";
  if (baseUrl === "" || clientId === "" || clientSecret === "" || payerKey === "") {
    throw new ProviderConfigError("PROVIDER=efi needs EFI_BASE_URL, EFI_CLIENT_ID, EFI_CLIENT_SECRET and EFI_PAYER_KEY");
  }
  const url = URL.parse(baseUrl);
  if (url === null || (url.protocol !== "https:" && url.protocol !== "http:")) {
    throw new ProviderConfigError(`EFI_BASE_URL must be an http(s) URL, got "${baseUrl}"`);
  }
  return createEfiProvider({ baseUrl, clientId, clientSecret, payerKey, timeoutMs, fetcher: efiFetcher(env, url) });
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
