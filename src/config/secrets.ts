// What a production secret must look like (CONTRACT §1): long enough not to be guessed, and
// never the value committed in .dev.vars.example (anyone can read it). A test keeps
// `exampleSecretValues` equal to that file.

/**
 * Minimum lengths, in characters. OPS_TOKEN: 32 (the contract). JWT_SECRET: 32, the HS256 key
 * length below which RFC 7518 §3.2 calls the key guessable. EFI_WEBHOOK_HMAC: 32, it is the only
 * thing that authenticates Efí's webhook URL. PROVIDER_TOKEN and EFI_CLIENT_SECRET: 16, the PSP
 * issues them and a shorter one is a paste error rather than a choice.
 */
export const secretLengthMin = {
  OPS_TOKEN: 32,
  JWT_SECRET: 32,
  EFI_WEBHOOK_HMAC: 32,
  PROVIDER_TOKEN: 16,
  EFI_CLIENT_SECRET: 16,
} as const;

/** Standard Webhooks keys are 24 to 64 random bytes; fewer than 24 is below its own floor. */
export const webhookKeyBytesMin = 24;

/** Every secret value .dev.vars.example has held: a deploy that copied one must not serve. */
export const exampleSecretValues: readonly string[] = [
  "local-dev-jwt-secret-change-me-0123456789abcdef",
  "whsec_bG9jYWwtZGV2LXdlYmhvb2stc2VjcmV0LTAxMjM0NTY3ODk=",
  "local-ops-token",
  "local-ops-token-change-me-0123456789abcdef",
  "whsec_bG9jYWwtZGV2LW9wcy1hbGVydC1zZWNyZXQtMDEyMzQ1Njc4OQ==",
];

/** A problem with one secret, or null: `raw` must already be known to be set. */
export function secretProblem(name: keyof typeof secretLengthMin, raw: string): string | null {
  if (exampleSecretValues.includes(raw)) return `${name} is the value from .dev.vars.example`;
  return secretLengthProblem(name, raw);
}

/** The length rule alone: what a local run keeps of the production rules for OPS_TOKEN. */
export function secretLengthProblem(name: keyof typeof secretLengthMin, raw: string): string | null {
  return raw.length < secretLengthMin[name] ? `${name} is shorter than ${secretLengthMin[name]} characters` : null;
}

/**
 * A problem with a Standard Webhooks secret list (`whsec_<base64>`, several separated by spaces
 * during a rotation), or null. `production` adds the length and example-value rules.
 */
export function webhookSecretProblem(name: string, raw: string, production: boolean): string | null {
  const secrets = raw.trim().split(/\s+/);
  for (const secret of secrets) {
    const bytes = whsecBytes(secret);
    if (bytes === null) return `${name} must be whsec_<base64>, several separated by spaces`;
    if (!production) continue;
    if (exampleSecretValues.includes(secret)) return `${name} is the value from .dev.vars.example`;
    if (bytes < webhookKeyBytesMin) return `${name} must decode to at least ${webhookKeyBytesMin} bytes`;
  }
  return null;
}

function whsecBytes(secret: string): number | null {
  if (!secret.startsWith("whsec_")) return null;
  const base64 = secret.slice("whsec_".length);
  if (base64 === "" || !/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) return null;
  try {
    return atob(base64).length;
  } catch {
    return null;
  }
}
