// Which Pix provider the saga talks to (CONTRACT §1 PROVIDER): explicit, never a fallback. With
// the sandbox off, the chosen adapter must have every variable it needs, over https:, with
// real secrets; otherwise the Worker refuses to serve rather than settle against nothing.
import { isSet, type Problems } from "./problems.ts";
import { secretProblem } from "./secrets.ts";
import { urlProblem } from "./urls.ts";

export type ProviderChoice =
  | { kind: "sandbox"; token: string | null }
  | { kind: "http"; url: string; token: string | null }
  | {
      kind: "efi";
      baseUrl: string;
      clientId: string;
      clientSecret: string;
      payerKey: string;
      webhookHmac: string;
      /** Empty: no source-IP check (local only). */
      webhookIps: readonly string[];
    };

export interface ProviderSource {
  PROVIDER?: string | undefined;
  PROVIDER_URL?: string | undefined;
  PROVIDER_TOKEN?: string | undefined;
  EFI_BASE_URL?: string | undefined;
  EFI_CLIENT_ID?: string | undefined;
  EFI_CLIENT_SECRET?: string | undefined;
  EFI_PAYER_KEY?: string | undefined;
  EFI_WEBHOOK_HMAC?: string | undefined;
  EFI_WEBHOOK_IPS?: string | undefined;
  EFI_CERT?: unknown;
}

const providerKinds = ["sandbox", "http", "efi"] as const;

/** The provider choice, or null after adding why to `problems`. */
export function readProvider(env: ProviderSource, sandboxEnabled: boolean, problems: Problems): ProviderChoice | null {
  const production = !sandboxEnabled;
  const kind = env.PROVIDER?.trim();
  if (kind === undefined || kind === "") {
    problems.add("PROVIDER", `PROVIDER is unset: set it to ${sandboxEnabled ? "sandbox, http or efi" : "http or efi"}`);
    return null;
  }
  if (!(providerKinds as readonly string[]).includes(kind)) {
    problems.add("PROVIDER", "PROVIDER must be sandbox, http or efi");
    return null;
  }
  const token = isSet(env.PROVIDER_TOKEN) ? env.PROVIDER_TOKEN : null;
  if (kind === "sandbox") {
    if (production) problems.add("PROVIDER", "PROVIDER is sandbox but SANDBOX_PROVIDER is not on: nothing would pay");
    return production ? null : { kind, token };
  }
  if (kind === "http") return readHttp(env, token, production, problems);
  return readEfi(env, production, problems);
}

function readHttp(env: ProviderSource, token: string | null, production: boolean, problems: Problems): ProviderChoice | null {
  const before = problems.list.length;
  const url = required(problems, "PROVIDER_URL", env.PROVIDER_URL);
  if (url !== null) problems.add("PROVIDER_URL", urlProblem("PROVIDER_URL", url, production));
  if (production) {
    if (token === null) problems.add("PROVIDER_TOKEN", "PROVIDER_TOKEN is unset (PROVIDER=http)");
    else problems.add("PROVIDER_TOKEN", secretProblem("PROVIDER_TOKEN", token));
  }
  if (url === null || problems.list.length > before) return null;
  return { kind: "http", url: url.trim(), token };
}

function readEfi(env: ProviderSource, production: boolean, problems: Problems): ProviderChoice | null {
  const before = problems.list.length;
  const baseUrl = required(problems, "EFI_BASE_URL", env.EFI_BASE_URL);
  const clientId = required(problems, "EFI_CLIENT_ID", env.EFI_CLIENT_ID);
  const clientSecret = required(problems, "EFI_CLIENT_SECRET", env.EFI_CLIENT_SECRET);
  const payerKey = required(problems, "EFI_PAYER_KEY", env.EFI_PAYER_KEY);
  const webhookHmac = required(problems, "EFI_WEBHOOK_HMAC", env.EFI_WEBHOOK_HMAC);
  if (baseUrl !== null) problems.add("EFI_BASE_URL", urlProblem("EFI_BASE_URL", baseUrl, production));
  if (production) {
    if (clientSecret !== null) problems.add("EFI_CLIENT_SECRET", secretProblem("EFI_CLIENT_SECRET", clientSecret));
    if (webhookHmac !== null) problems.add("EFI_WEBHOOK_HMAC", secretProblem("EFI_WEBHOOK_HMAC", webhookHmac));
    // Efí refuses API calls without the client certificate it issued: no binding, no Pix.
    if (env.EFI_CERT === undefined || env.EFI_CERT === null) {
      problems.add("EFI_CERT", "the EFI_CERT mTLS certificate binding is missing ([[mtls_certificates]] in wrangler.toml)");
    }
  }
  const webhookIps = (env.EFI_WEBHOOK_IPS ?? "")
    .split(",")
    .map((ip) => ip.trim())
    .filter((ip) => ip !== "");
  // Empty means "no source-IP check", which is for local runs only (CONTRACT §1): in production
  // the hmac in the URL would be the webhook's only guard.
  if (production && webhookIps.length === 0)
    problems.add("EFI_WEBHOOK_IPS", "EFI_WEBHOOK_IPS is empty: list Efí's webhook source IPs (e.g. 34.193.116.226)");
  if (baseUrl === null || clientId === null || clientSecret === null || payerKey === null || webhookHmac === null) return null;
  if (problems.list.length > before) return null;
  return { kind: "efi", baseUrl: baseUrl.trim(), clientId, clientSecret, payerKey, webhookHmac, webhookIps };
}

function required(problems: Problems, name: string, raw: string | undefined): string | null {
  if (isSet(raw)) return raw;
  problems.add(name, `${name} is unset (PROVIDER=${name.startsWith("EFI_") ? "efi" : "http"})`);
  return null;
}
