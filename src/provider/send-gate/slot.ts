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

export class SendGateBusy extends Error {
  override readonly name = "SendGateBusy";
}

import { abandonedSendMarginMs, type SendSlot } from "./send-slot.ts";

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
