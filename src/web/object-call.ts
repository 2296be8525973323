// A Durable Object RPC from a route. The objects answer outcomes as values, so an exception
// from `stub.method()` is a fault of the platform: the object was reset, redeployed, evicted
// or overloaded mid-call. That is never the client's fault and never a 500: the route answers
// 503 with Retry-After, and the client's retry (same Idempotency-Key) learns what happened.
//
//   const result = await callObject(c, "start", () => c.env.TRANSFER_SAGA.getByName(id).start(input));
//   callObject(c, "resolve", work, "The resolution could not be recorded; try again.");
import type { Context } from "hono";
import { log } from "../lib/log.ts";
import { ProblemError } from "./problem.ts";

/** Seconds a client waits before retrying after a fault: an object restarts in well under one. */
export const objectFaultRetryAfterSeconds = 1;

export const objectFaultDetail = "The request was interrupted on our side; retry with the same Idempotency-Key.";

/**
 * workerd marks an RPC error `retryable` when the call may be repeated safely (the object was
 * reset before or while it ran and the runtime knows no state is half-written); `overloaded`
 * errors are retryable too by that flag but retrying at once only adds load, so they are not.
 * Only once: a second fault in a row is no longer a blip, and the client retries anyway.
 */
export function isRetryableObjectError(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const flags = error as { retryable?: unknown; overloaded?: unknown };
  return flags.retryable === true && flags.overloaded !== true;
}

export class ObjectFault extends ProblemError {
  constructor(detail: string) {
    super(503, { type: "unavailable", detail, headers: { "Retry-After": String(objectFaultRetryAfterSeconds) } });
  }
}

function describe(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { error_value: String(error) };
  const flags = error as { retryable?: unknown; overloaded?: unknown };
  return {
    error_name: error.name,
    error_message: error.message,
    retryable: flags.retryable === true,
    overloaded: flags.overloaded === true,
  };
}

/**
 * Runs `work` (one RPC, built afresh on each call so a retry gets a fresh stub) and retries it
 * once when its error is retryable; any other exception becomes an `ObjectFault` (503).
 */
export async function callObject<T>(c: Context, rpc: string, work: () => Promise<T>, detail: string = objectFaultDetail): Promise<T> {
  try {
    return await work();
  } catch (first) {
    log(c, "object_call_fault", { rpc, attempt: 1, ...describe(first) }, "warn");
    if (!isRetryableObjectError(first)) throw new ObjectFault(detail);
    try {
      return await work();
    } catch (second) {
      log(c, "object_call_fault", { rpc, attempt: 2, ...describe(second) }, "warn");
      throw new ObjectFault(detail);
    }
  }
}
