// A database that does not answer is a fault of ours the client retries: 503 with Retry-After,
// like every other fault (the chaos run counts any other 5xx), never a 500; on every route that
// reads or writes it directly, not only on the ones that happen to read business time first.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../src/worker.ts";
import { clientHeaders, fundedAccount, opsHeaders } from "../support/api.ts";
import { expectProblem } from "./helpers.ts";

/** Port 9 (discard) on loopback: nothing listens, the connection is refused at once. */
const unreachable = "postgres://nobody:x@127.0.0.1:9/none";

async function withoutDatabase(path: string, init: RequestInit): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(`http://pix.test${path}`, init), { ...env, DATABASE_URL: unreachable }, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

describe("a database that does not answer", () => {
  it("is 503 unavailable with Retry-After on the routes that query it directly", async () => {
    const accountId = await fundedAccount(1_000);
    const headers = await clientHeaders(accountId);
    const routes: [string, RequestInit][] = [
      ["/v1/balance", { headers }],
      ["/v1/transfers", { headers }],
      ["/v1/trusted-recipients/ana@example.com?type=email", { method: "DELETE", headers }],
      [`/ops/accounts/${accountId}-new`, { method: "PUT", headers: opsHeaders() }],
    ];
    for (const [path, init] of routes) {
      const response = await withoutDatabase(path, init);
      const problem = await expectProblem(response, 503, "unavailable");
      expect(response.headers.get("retry-after"), path).toBe("1");
      expect(problem.detail, path).not.toMatch(/127\.0\.0\.1|postgres|nobody/);
    }
  });
});
