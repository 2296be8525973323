// Runs one provider send inside a SendGate lease when PROVIDER_SEND_CONCURRENCY is above 0 (no
// gate call at all at 0). Busy after the bounded wait is a fault, not an outcome: the saga step
// throws, nothing was sent, and the object retries on its fault backoff.
import { readIntegerVariable } from "../../config/integer.ts";
import { sendGateInstanceName } from "./gate-object.ts";

/** Far above any provider's wish; a typo like 10000 fails loudly instead. */
const sendConcurrencyMax = 1_000;
/** A waiting send gives up after this and retries later: the saga's step must not wait forever. */
export const sendSlotWaitMsMax = 30_000;
/** A lease outlives the longest send: four bounded calls (token, send, new token, send) and a margin. */
const leaseCallsMax = 4;
const leaseMarginMs = 5_000;

export class SendGateBusy extends Error {
  override readonly name = "SendGateBusy";
}

import type { SendSlot } from "./send-slot.ts";

export type { SendSlot };

export function sendConcurrency(env: Pick<Env, "PROVIDER_SEND_CONCURRENCY">): number {
  return readIntegerVariable("PROVIDER_SEND_CONCURRENCY", env.PROVIDER_SEND_CONCURRENCY, 0, 0, sendConcurrencyMax);
}

export function sendSlotFor(env: Env, timeoutMs: number): SendSlot {
  const limit = sendConcurrency(env);
  if (limit === 0) return (work) => work();
  const leaseMs = leaseCallsMax * timeoutMs + leaseMarginMs;
  return async (work, keepLease) => {
    const gate = env.SEND_GATE.getByName(sendGateInstanceName);
    const acquired = await gate.acquire({ limit, leaseMs, waitMsMax: sendSlotWaitMsMax });
    if (acquired.outcome !== "granted") throw new SendGateBusy(`no send slot within ${sendSlotWaitMsMax} ms`);
    let keep = false;
    try {
      const result = await work();
      keep = keepLease?.(result) ?? false;
      return result;
    } finally {
      // A release that fails leaves the lease to expire: slower, never stuck.
      if (!keep) await gate.release(acquired.leaseId).catch(() => undefined);
    }
  };
}
