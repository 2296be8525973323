// GET /v1/transfers/:id/events reaches the transfer's object with a plain fetch(), not an RPC;
// a reset there is a fault of ours like any other: 503 problem+json with Retry-After, never the
// error handler's 500, and a fault the runtime marks `retryable` is tried once more. The Worker's
// handler is called with the test bindings and a saga namespace whose stubs fail as told.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../src/worker.ts";
import { clientHeaders } from "../support/api.ts";
import { filePool } from "../support/pool-test.ts";
import { heldTransfer } from "../support/saga.ts";
import { expectProblem } from "./helpers.ts";

const pool = filePool(2);

/** The saga namespace whose stubs' fetch() throws each of `failures` in turn, then reaches the real object. */
function failingStreams(failures: readonly Error[]): { env: Env; attempts: () => number } {
  let attempts = 0;
  const namespace = {
    getByName: (name: string) => {
      const stub = env.TRANSFER_SAGA.getByName(name);
      return new Proxy(stub, {
        get: (target, property) => {
          if (property !== "fetch") return Reflect.get(target, property);
          return (request: Request) => {
            const failure = failures[attempts];
            attempts += 1;
            if (failure) return Promise.reject(failure);
            return target.fetch(request);
          };
        },
      });
    },
  } as unknown as Env["TRANSFER_SAGA"];
  return { env: { ...env, TRANSFER_SAGA: namespace }, attempts: () => attempts };
}

async function openStreamWith(testEnv: Env, accountId: string, transferId: string): Promise<Response> {
  const ctx = createExecutionContext();
  const request = new Request(`http://pix.test/v1/transfers/${transferId}/events`, { headers: await clientHeaders(accountId) });
  const response = await worker.fetch(request, testEnv, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

describe("an object reset while GET /v1/transfers/:id/events opens the stream", () => {
  it("answers 503 problem+json with Retry-After, and tries an unflagged fault only once", async () => {
    const { accountId, id } = await heldTransfer(pool);
    const faulty = failingStreams([new Error("Durable Object reset because its code was updated.")]);
    const response = await openStreamWith(faulty.env, accountId, id);
    expect(response.headers.get("retry-after")).toBe("1");
    await expectProblem(response, 503, "unavailable");
    expect(faulty.attempts()).toBe(1);
  });

  it("retries a retryable fault once and streams the transfer", async () => {
    const { accountId, id } = await heldTransfer(pool);
    const faulty = failingStreams([Object.assign(new Error("Network connection lost."), { retryable: true })]);
    const response = await openStreamWith(faulty.env, accountId, id);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    await response.body?.cancel();
    expect(faulty.attempts()).toBe(2);
  });
});
