// Chooses the provider adapter from the parsed configuration (src/config/, PROVIDER): a real PSP
// over the network, or the sandbox reached through the Worker's own loopback binding (exactly
// its HTTP API, no network). Nothing falls back to the sandbox: a configuration with problems
// has no adapter at all.
import { exports } from "cloudflare:workers";
import { configOf } from "../config/isolate.ts";
import { ProviderConfigError } from "./config.ts";
import { createHttpProvider } from "./http-provider.ts";
import type { PixProvider } from "./port.ts";

/** The host is never resolved: loopback requests go straight to this Worker's fetch handler. */
export const sandboxProviderBaseUrl = "http://sandbox.internal/sandbox/provider";

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
      // The Efí adapter (CONTRACT §4b) is wired here by its own change; until then no Pix is sent.
      throw new ProviderConfigError("PROVIDER=efi: the Efí adapter is not part of this build");
  }
}
