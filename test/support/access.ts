// Operators as people in tests: assertions from the stand-in Cloudflare Access the global setup
// runs (scripts/lib/access-issuer.ts), as Access would put them on a request.
import { inject } from "vitest";
import { mintAccessAssertion } from "../../scripts/lib/access-assertion.ts";

export function accessAssertion(email: string): Promise<string> {
  return mintAccessAssertion(inject("accessPrivateJwk"), { email });
}

/** JSON request headers of a person signed in through Access. */
export async function personHeaders(email: string, extra: Record<string, string> = {}): Promise<Record<string, string>> {
  return { "cf-access-jwt-assertion": await accessAssertion(email), "content-type": "application/json", ...extra };
}
