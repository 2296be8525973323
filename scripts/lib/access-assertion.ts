// Assertions as Cloudflare Access issues them, signed by the stand-in issuer's key
// (access-issuer.ts). No Node APIs: the Worker tests mint these inside workerd.
import { importJWK, type JWK, SignJWT } from "jose";

/** What the Worker under test is configured with (ACCESS_TEAM_DOMAIN, ACCESS_AUD). */
export const testAccessTeamDomain = "https://pix-test.cloudflareaccess.com";
export const testAccessAud = "pix-test-access-aud";
export const testAccessKid = "access-test-1";

/** An assertion as Access issues it for `email`, valid for ten minutes. */
export async function mintAccessAssertion(privateJwk: JWK, claims: { email: string }): Promise<string> {
  const key = await importJWK(privateJwk, "RS256");
  return new SignJWT({ email: claims.email, type: "app" })
    .setProtectedHeader({ alg: "RS256", kid: privateJwk.kid ?? testAccessKid })
    .setIssuer(testAccessTeamDomain)
    .setAudience([testAccessAud])
    .setSubject(crypto.randomUUID())
    .setIssuedAt()
    .setExpirationTime("10m")
    .sign(key);
}
