// A request's fingerprint: SHA-256 over its normalised fields, so a replay with the same
// meaning (e.g. a CPF with or without punctuation) matches and any other body does not.
export async function requestFingerprint(fields: readonly unknown[]): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify(fields));
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
