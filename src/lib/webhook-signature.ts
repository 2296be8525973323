// Standard Webhooks signatures (CONTRACT §3): HMAC-SHA256 over "{id}.{timestamp}.{raw body}",
// header `v1,<base64>` (several space-separated), secrets `whsec_<base64>` (several during a
// rotation). crypto.subtle.verify compares in constant time, so no timing leak on the MAC.
import { webhookHeaders } from "./webhook-headers.ts";

/** Standard Webhooks' default: old enough to absorb clock skew, short enough to stop replays. */
export const webhookToleranceSeconds = 300;
/** Bounds the HMAC work one request can cause: signatures per header and secrets per config. */
const signaturesPerHeaderMax = 8;
const secretsMax = 8;
const webhookIdLengthMax = 256;
const secretPrefix = "whsec_";

export type WebhookRejection =
  | "missing_headers"
  | "bad_id"
  | "bad_timestamp"
  | "stale_timestamp"
  | "too_many_signatures"
  | "bad_signature"
  /** WEBHOOK_SECRET is empty or not a list of `whsec_<base64>`: nothing can verify. */
  | "secret_misconfigured";

export type WebhookVerification = { ok: true } | { ok: false; reason: WebhookRejection };

/** Only `get` is needed, so both `Headers` and test doubles fit. */
export interface HeaderSource {
  get(name: string): string | null;
}

export async function signWebhook(input: {
  secret: string;
  id: string;
  timestampSeconds: number;
  body: string | Uint8Array;
}): Promise<string> {
  const secretBytes = parseSecret(input.secret);
  if (secretBytes === null) throw new Error("signWebhook: the secret is not whsec_<base64>");
  const key = await hmacKey(secretBytes, "sign");
  const body = typeof input.body === "string" ? new TextEncoder().encode(input.body) : input.body;
  const signature = await crypto.subtle.sign("HMAC", key, signedContent(input.id, String(input.timestampSeconds), body));
  return `v1,${bytesToBase64(new Uint8Array(signature))}`;
}

export async function verifyWebhook(input: {
  secrets: string;
  headers: HeaderSource;
  rawBody: Uint8Array;
  nowSeconds: number;
}): Promise<WebhookVerification> {
  const id = input.headers.get("webhook-id");
  const timestamp = input.headers.get("webhook-timestamp");
  const signatureHeader = input.headers.get("webhook-signature");
  if (id === null || timestamp === null || signatureHeader === null) return { ok: false, reason: "missing_headers" };
  if (id.length === 0 || id.length > webhookIdLengthMax) return { ok: false, reason: "bad_id" };

  const secrets = parseSecretList(input.secrets);
  if (secrets === null) return { ok: false, reason: "secret_misconfigured" };

  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: "bad_timestamp" };
  // Both directions: a timestamp far in the future is as replayable as an old one.
  if (Math.abs(input.nowSeconds - Number(timestamp)) > webhookToleranceSeconds) return { ok: false, reason: "stale_timestamp" };

  const entries = signatureHeader.split(" ").filter((entry) => entry !== "");
  if (entries.length > signaturesPerHeaderMax) return { ok: false, reason: "too_many_signatures" };
  // Other schemes (v1a asymmetric, future versions) are ignored: only v1 is ours to check.
  const candidates = entries
    .filter((entry) => entry.startsWith("v1,"))
    .map((entry) => base64ToBytes(entry.slice(3)))
    .filter((bytes): bytes is Uint8Array => bytes !== null);

  const content = signedContent(id, timestamp, input.rawBody);
  for (const secret of secrets) {
    const key = await hmacKey(secret, "verify");
    for (const candidate of candidates) {
      if (await crypto.subtle.verify("HMAC", key, candidate, content)) return { ok: true };
    }
  }
  return { ok: false, reason: "bad_signature" };
}

/** The secret the sandbox signs with: the first of the list (the newest, by rotation convention). */
export function firstWebhookSecret(secrets: string): string | null {
  return secrets.split(" ").find((entry) => entry !== "") ?? null;
}

/** All secrets, or null when any entry is malformed: a half-valid rotation list is a config bug. */
function parseSecretList(secrets: string): Uint8Array[] | null {
  const entries = secrets.split(" ").filter((entry) => entry !== "");
  if (entries.length === 0 || entries.length > secretsMax) return null;
  const parsed = entries.map(parseSecret);
  return parsed.every((bytes): bytes is Uint8Array => bytes !== null) ? parsed : null;
}

function parseSecret(secret: string): Uint8Array | null {
  if (!secret.startsWith(secretPrefix)) return null;
  const bytes = base64ToBytes(secret.slice(secretPrefix.length));
  return bytes !== null && bytes.byteLength > 0 ? bytes : null;
}

function hmacKey(secret: Uint8Array, usage: "sign" | "verify"): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-256" }, false, [usage]);
}

function signedContent(id: string, timestamp: string, body: Uint8Array): Uint8Array {
  const prefix = new TextEncoder().encode(`${id}.${timestamp}.`);
  const content = new Uint8Array(prefix.byteLength + body.byteLength);
  content.set(prefix, 0);
  content.set(body, prefix.byteLength);
  return content;
}

function bytesToBase64(bytes: Uint8Array): string {
  return btoa(Array.from(bytes, (byte) => String.fromCharCode(byte)).join(""));
}

function base64ToBytes(text: string): Uint8Array | null {
  try {
    return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

/** The four headers of a request carrying `body`, signed at `timestampSeconds` with `secret`. */
export async function signedWebhookHeaders(input: {
  secret: string;
  id: string;
  timestampSeconds: number;
  body: string;
}): Promise<Record<string, string>> {
  return webhookHeaders(input.id, input.timestampSeconds, await signWebhook(input));
}
