// Constant-time comparison of a presented secret with the configured one (OPS_TOKEN,
// EFI_WEBHOOK_HMAC, the console's sign-in).

/**
 * Hashing both sides first gives timingSafeEqual the equal lengths it needs, so neither the
 * secret's content nor its length leaks through how long the comparison takes.
 */
export async function sameSecret(presented: string, expected: string): Promise<boolean> {
  const encoder = new TextEncoder();
  const [presentedHash, expectedHash] = await Promise.all([
    crypto.subtle.digest("SHA-256", encoder.encode(presented)),
    crypto.subtle.digest("SHA-256", encoder.encode(expected)),
  ]);
  return crypto.subtle.timingSafeEqual(presentedHash, expectedHash);
}
