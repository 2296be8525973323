// Runs one provider send inside a SendGate lease when PROVIDER_SEND_CONCURRENCY is above 0 (no
// gate call at all at 0). Busy after the bounded wait is a fault, not an outcome: the saga step
// throws, nothing was sent, and the object retries on its fault backoff.
import { configuredOrThrow } from "../../config/isolate.ts";
import { sendGateInstanceName } from "./gate-object.ts";

/** A waiting send gives up after this and retries later: the saga's step must not wait forever. */
export const sendSlotWaitMsMax = 30_000;
/**
 * The lease is only for a saga object that died holding its slot: it outlives the longest send,
 * four bounded calls (token, send, new token, send), and a margin. A live holder gives its slot
 * back sooner, always.
 */
const leaseCallsMax = 4;
const leaseMarginMs = 5_000;
/**
 * How long a send we gave up on (PROVIDER_TIMEOUT_MS passed) still counts as in flight at the
 * provider. When we abort, the request has reached the provider or never will; what remains is
 * the provider finishing work it already started, and a PSP that has not answered a Pix send
 * within our timeout (10 s by default, many times its normal answer) is finishing it, not
 * starting it. One more second covers that tail (twice the sandbox's own overrun of 500 ms).
 * Erring short costs at most one `429` to the next send, which is unknown and retried, never
 * money; erring long leaves the gate idle with a queue behind it, as the dead-object lease did
 * (4 timeouts + 5 s: 7.8 s in the Efí suite) for a caller that had given up after one timeout.
 */
export const abandonedSendMarginMs = 1_000;

export class SendGateBusy extends Error {
  override readonly name = "SendGateBusy";
}

import type { SendSlot } from "./send-slot.ts";

export type { SendSlot };

/** `gate`: the gate's stub; the one gate of the Worker unless a test gives its own. */
export function sendSlotFor(env: Env, timeoutMs: number, gate = env.SEND_GATE.getByName(sendGateInstanceName)): SendSlot {
  const limit = configuredOrThrow(env).sendConcurrency;
  if (limit === 0) return (work) => work();
  const leaseMs = leaseCallsMax * timeoutMs + leaseMarginMs;
  return async (work, stillInFlight) => {
    const acquired = await gate.acquire({ limit, leaseMs, waitMsMax: sendSlotWaitMsMax });
    if (acquired.outcome !== "granted") throw new SendGateBusy(`no send slot within ${sendSlotWaitMsMax} ms`);
    let abandoned = false;
    try {
      const result = await work();
      abandoned = stillInFlight?.(result) ?? false;
      return result;
    } finally {
      const giveBack = abandoned ? gate.releaseAfter(acquired.leaseId, abandonedSendMarginMs) : gate.release(acquired.leaseId);
      // A release that fails leaves the lease to expire: slower, never stuck.
      await giveBack.catch(() => undefined);
    }
  };
}
