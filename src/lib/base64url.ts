// Strict base64url (RFC 4648 §5, no padding), as JWS, the console session and the list cursors
// use it: anything else is not ours.

const base64UrlAlphabet = /^[A-Za-z0-9_-]*$/;

/** The bytes, or undefined for characters outside the alphabet, padding, or an impossible length. */
export function decodeBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!base64UrlAlphabet.test(text) || text.length % 4 === 1) return undefined;
  const base64 = text
    .replace(/-/g, "+")
    .replace(/_/g, "/")
    .padEnd(Math.ceil(text.length / 4) * 4, "=");
  let binary: string;
  try {
    binary = atob(base64);
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function encodeBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
