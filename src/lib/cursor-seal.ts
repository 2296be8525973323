// List cursors (CONTRACT §2: a cursor the API did not issue is 400): the position where a page
// ended, sealed with an HMAC-SHA256 tag, so a made-up or altered position is refused before it
// reaches SQL, however well-formed it looks.
//
// The key is derived (HKDF) from DATABASE_URL: the one secret every configuration has (client,
// operator and webhook secrets are each optional in some configuration), and whoever holds it
// can read every row a cursor points at anyway, so a cursor key derived from it gives nothing
// away. Changing the database password invalidates outstanding cursors: a client that sends an
// old one gets 400 and starts again from the first page.
import { decodeBase64Url, encodeBase64Url } from "./base64url.ts";

/** The longest position a list seals (a time and a UUID, JSON-encoded, is about 80 bytes). */
const positionBytesMax = 128;
/** base64url of 32 bytes. */
const tagChars = 43;
const sealedPattern = new RegExp(`^([A-Za-z0-9_-]{1,${Math.ceil((positionBytesMax * 4) / 3)}})\\.([A-Za-z0-9_-]{${tagChars}})$`);
/** The longest cursor sealCursor issues: what a query schema may bound `cursor` by. */
export const sealedCursorCharsMax = Math.ceil((positionBytesMax * 4) / 3) + 1 + tagChars;

export interface CursorKeySource {
  DATABASE_URL: string;
}

/** Keys derived so far, by the secret they came from: derived once per isolate, not per request. */
const keys = new Map<string, CryptoKey>();

async function cursorKey(source: CursorKeySource): Promise<CryptoKey> {
  const known = keys.get(source.DATABASE_URL);
  if (known !== undefined) return known;
  const encoder = new TextEncoder();
  const material = await crypto.subtle.importKey("raw", encoder.encode(source.DATABASE_URL), "HKDF", false, ["deriveKey"]);
  const key = await crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: encoder.encode("pix-cashout list cursor v1") },
    material,
    { name: "HMAC", hash: "SHA-256", length: 256 },
    false,
    ["sign", "verify"],
  );
  keys.set(source.DATABASE_URL, key);
  return key;
}

/** What the tag covers: the list it belongs to (`scope`, e.g. an account's transfers) and the position. */
function signedBytes(scope: string, position: Uint8Array): Uint8Array<ArrayBuffer> {
  const scopeBytes = new TextEncoder().encode(`${scope}\n`);
  const bytes = new Uint8Array(scopeBytes.byteLength + position.byteLength);
  bytes.set(scopeBytes);
  bytes.set(position, scopeBytes.byteLength);
  return bytes;
}

/** `position` is the list's own encoding of where the page ended; the cursor is only ever read back by openCursor. */
export async function sealCursor(source: CursorKeySource, scope: string, position: string): Promise<string> {
  const bytes = new TextEncoder().encode(position);
  if (bytes.byteLength > positionBytesMax) throw new Error(`a cursor position is at most ${positionBytesMax} bytes`);
  const tag = await crypto.subtle.sign("HMAC", await cursorKey(source), signedBytes(scope, bytes));
  return `${encodeBase64Url(bytes)}.${encodeBase64Url(new Uint8Array(tag))}`;
}

/** The position sealCursor sealed for this scope, or null for anything it did not issue. */
export async function openCursor(source: CursorKeySource, scope: string, cursor: string): Promise<string | null> {
  const parts = sealedPattern.exec(cursor);
  if (!parts) return null;
  const position = decodeBase64Url(parts[1] ?? "");
  const tag = decodeBase64Url(parts[2] ?? "");
  if (position === undefined || tag === undefined || position.byteLength > positionBytesMax) return null;
  // One spelling per cursor: base64url's spare trailing bits must not make a second one.
  if (`${encodeBase64Url(position)}.${encodeBase64Url(tag)}` !== cursor) return null;
  // Verified by WebCrypto, in constant time.
  const valid = await crypto.subtle.verify("HMAC", await cursorKey(source), tag, signedBytes(scope, position));
  if (!valid) return null;
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(position);
  } catch {
    return null;
  }
}
