// Assertions as Cloudflare Access issues them, signed by the stand-in issuer's key
// (access-issuer.ts). No Node APIs: the Worker tests mint these inside workerd.
import { importJWK, type JWK, SignJWT } from "jose";

/** What the Worker under test is configured with (ACCESS_TEAM_DOMAIN, ACCESS_AUD). */
export const testAccessTeamDomain = "https://pix-test.cloudflareaccess.com";
export const testAccessAud = "pix-test-access-aud";
export const testAccessKid = "access-test-1";

/**
 * The `sub` Access gives the person behind `email`: a UUID, the same at every sign-in, as
 * Access keeps one user id per person (so four eyes sees one person per email in tests unless
 * a test names the `sub`, e.g. two emails of one person).
 */
export async function testAccessSubject(email: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(email.toLowerCase())));
  const hex = Array.from(digest.slice(0, 16), (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** An assertion as Access issues it for `email` (and `sub`, by default the email's), valid for ten minutes. */
export async function mintAccessAssertion(privateJwk: JWK, claims: { email: string; sub?: string }): Promise<string> {
  const key = await importJWK(privateJwk, "RS256");
  // Access's identity_nonce differs at every sign-in, so no two assertions are alike.
  return new SignJWT({ email: claims.email, type: "app", identity_nonce: crypto.randomUUID() })
    .setProtectedHeader({ alg: "RS256", kid: privateJwk.kid ?? testAccessKid })
    .setIssuer(testAccessTeamDomain)
    .setAudience([testAccessAud])
    .setSubject(claims.sub ?? (await testAccessSubject(claims.email)))
    .setIssuedAt()
    .setExpirationTime("10m")
    .sign(key);
}
