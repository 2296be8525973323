// Operators as people in tests: assertions from the stand-in Cloudflare Access the global setup
// runs (scripts/lib/access-issuer.ts), as Access would put them on a request.
import { inject } from "vitest";
import { mintAccessAssertion } from "../../scripts/lib/access-assertion.ts";
import { call } from "./api.ts";

/** `sub` names who the person is (by default one per email); two emails with one `sub` are one person. */
export function accessAssertion(email: string, sub?: string): Promise<string> {
  return mintAccessAssertion(inject("accessPrivateJwk"), sub === undefined ? { email } : { email, sub });
}

/** JSON request headers of a person signed in through Access. */
export async function personHeaders(email: string, extra: Record<string, string> = {}, sub?: string): Promise<Record<string, string>> {
  return { "cf-access-jwt-assertion": await accessAssertion(email, sub), "content-type": "application/json", ...extra };
}

/** The person every test that needs "a person, not ops-token" acts as. */
export const testOperatorEmail = "operator@fintech.example";

/** `call` as a person signed in through Access (what ops-token may not do: CONTRACT §5). */
export async function personCall(
  path: string,
  init: Omit<RequestInit, "headers"> & { headers?: Record<string, string> } = {},
  email = testOperatorEmail,
): Promise<Response> {
  return call(path, { ...init, headers: await personHeaders(email, init.headers) });
}
