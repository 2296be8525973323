// Token factories for the auth tests: HS256 with a secret, RS256/ES256 with keys generated here,
// and hand-made tokens (alg none, bad encodings) that no library would produce.
import { encodeBase64Url } from "../../src/lib/base64url.ts";

export type Claims = Record<string, unknown>;
export type Header = Record<string, unknown>;

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);
/** A valid claim set for account `acct_1`, expiring in an hour. */
export const validClaims = (overrides: Claims = {}): Claims => ({ sub: "acct_1", exp: nowSeconds() + 3600, ...overrides });

const textBytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const part = (value: unknown): string => encodeBase64Url(textBytes(JSON.stringify(value)));

/** `header.payload.signature` with whatever signature bytes are given (empty for alg none). */
export function assembleToken(header: Header, claims: Claims, signature: Uint8Array = new Uint8Array()): string {
  return `${part(header)}.${part(claims)}.${encodeBase64Url(signature)}`;
}

async function signedToken(header: Header, claims: Claims, sign: (data: Uint8Array) => Promise<ArrayBuffer>): Promise<string> {
  const signingInput = `${part(header)}.${part(claims)}`;
  const signature = new Uint8Array(await sign(textBytes(signingInput)));
  return `${signingInput}.${encodeBase64Url(signature)}`;
}

export async function hs256Token(
  secret: string | Uint8Array,
  claims: Claims,
  header: Header = { alg: "HS256", typ: "JWT" },
): Promise<string> {
  const keyBytes = typeof secret === "string" ? textBytes(secret) : secret;
  const key = await crypto.subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return signedToken(header, claims, (data) => crypto.subtle.sign("HMAC", key, data));
}

export type SigningKey = { alg: "RS256" | "ES256"; kid: string; privateKey: CryptoKey; publicJwk: JsonWebKey & { kid: string } };

export async function generateSigningKey(alg: "RS256" | "ES256", kid: string): Promise<SigningKey> {
  const params =
    alg === "RS256"
      ? { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" }
      : { name: "ECDSA", namedCurve: "P-256" };
  const pair = (await crypto.subtle.generateKey(params, true, ["sign", "verify"])) as CryptoKeyPair;
  const exported = (await crypto.subtle.exportKey("jwk", pair.publicKey)) as JsonWebKey;
  return { alg, kid, privateKey: pair.privateKey, publicJwk: { ...exported, kid, alg, use: "sig" } };
}

export function asymmetricToken(
  key: SigningKey,
  claims: Claims,
  header: Header = { alg: key.alg, kid: key.kid, typ: "JWT" },
): Promise<string> {
  const algorithm = key.alg === "RS256" ? { name: "RSASSA-PKCS1-v1_5" } : { name: "ECDSA", hash: "SHA-256" };
  return signedToken(header, claims, (data) => crypto.subtle.sign(algorithm, key.privateKey, data));
}
