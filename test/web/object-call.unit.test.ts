// callObject: an exception from a Durable Object RPC is a 503 with Retry-After, never a 500,
// and an error the runtime marks `retryable` is tried once more before that.
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { type RequestIdVariables, requestId } from "../../src/http/request-id.ts";
import { callObject, isRetryableObjectError } from "../../src/web/object-call.ts";
import { installProblemHandlers, type ProblemBody, problemTypeUri } from "../../src/web/problem.ts";

function rpcError(message: string, flags: { retryable?: boolean; overloaded?: boolean }): Error {
  return Object.assign(new Error(message), flags);
}

/** An app whose one route calls `work` through callObject; `calls` counts the attempts. */
function appCalling(failures: readonly Error[]) {
  const app = new Hono<{ Variables: RequestIdVariables }>();
  app.use(requestId());
  installProblemHandlers(app);
  const attempts = { count: 0 };
  app.post("/rpc", async (c) => {
    const answer = await callObject(c, "test", async () => {
      const failure = failures[attempts.count];
      attempts.count += 1;
      if (failure) throw failure;
      return { outcome: "done" };
    });
    return c.json(answer);
  });
  return { app, attempts };
}

async function expectFault(response: Response): Promise<void> {
  expect(response.status).toBe(503);
  expect(response.headers.get("retry-after")).toBe("1");
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  const body = (await response.json()) as ProblemBody;
  expect(body.type).toBe(problemTypeUri("unavailable"));
  expect(body.detail).toContain("same Idempotency-Key");
}

describe("callObject", () => {
  it("turns an interrupted call into 503 with Retry-After, without retrying it", async () => {
    const { app, attempts } = appCalling([rpcError("Durable Object reset because its code was updated.", {})]);
    await expectFault(await app.request("/rpc", { method: "POST" }));
    expect(attempts.count).toBe(1);
  });

  it("retries a retryable error once and answers the retry", async () => {
    const { app, attempts } = appCalling([rpcError("Network connection lost.", { retryable: true })]);
    const response = await app.request("/rpc", { method: "POST" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ outcome: "done" });
    expect(attempts.count).toBe(2);
  });

  it("answers 503 when the retry fails too, and never tries a third time", async () => {
    const retryable = rpcError("Network connection lost.", { retryable: true });
    const { app, attempts } = appCalling([retryable, retryable, retryable]);
    await expectFault(await app.request("/rpc", { method: "POST" }));
    expect(attempts.count).toBe(2);
  });

  it("does not retry an overloaded object at once", async () => {
    const { app, attempts } = appCalling([rpcError("Durable Object is overloaded.", { retryable: true, overloaded: true })]);
    await expectFault(await app.request("/rpc", { method: "POST" }));
    expect(attempts.count).toBe(1);
  });

  it("classifies only errors flagged retryable", () => {
    expect(isRetryableObjectError(rpcError("x", { retryable: true }))).toBe(true);
    expect(isRetryableObjectError(rpcError("x", {}))).toBe(false);
    expect(isRetryableObjectError("retryable")).toBe(false);
    expect(isRetryableObjectError(null)).toBe(false);
  });
});
