// The saga's ports as the transfer's object wires them: its database session, the configured
// provider and send gate, the clocks (wall and business), and the alerts a provider's answer can raise.

import { noticeOrderMismatch } from "../alerts/order-mismatch.ts";
import { noticeProviderMisconfigured } from "../alerts/provider-misconfigured.ts";
import type { AlertRuntime } from "../alerts/schedule.ts";
import { businessNowMs, clockAdvancedSinceMs } from "../clock/business-time.ts";
import { configuredOrThrow } from "../config/isolate.ts";
import type { Queryable } from "../db/queryable.ts";
import { providerFor } from "../provider/select.ts";
import { sendSlotFor } from "../provider/send-gate/slot.ts";
import type { SagaPorts } from "./advance.ts";
import { wakeOpenedLater } from "./wake-opened.ts";

export function sagaPorts(env: Env, runtime: AlertRuntime, db: Queryable): SagaPorts {
  const config = configuredOrThrow(env);
  return {
    db,
    provider: providerFor(env),
    timings: config.sagaTimings,
    rules: config.rules,
    nowMs: () => Date.now(),
    businessNowMs: () => businessNowMs(db, config),
    clockAdvancedSinceMs: (sinceMs) => clockAdvancedSinceMs(db, config, sinceMs),
    alert: (saga, alert, call) =>
      alert === "order_mismatch"
        ? noticeOrderMismatch(env, runtime, saga, call)
        : noticeProviderMisconfigured(env, runtime, saga, alert, call),
    sendSlot: sendSlotFor(env, config.providerTimeoutMs),
    opened: (transferIds) => wakeOpenedLater(env, runtime, transferIds),
  };
}
