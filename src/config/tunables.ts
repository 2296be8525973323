// Every numeric variable of CONTRACT §1, with its default and its bounds, in one table: the only
// place a default lives. The readers (parse.ts, saga-timings.ts, rule-settings.ts, events.ts) take
// them from here, and wrangler.toml sets a variable only to differ from it (a test holds it to that).
import { readIntegerVariable } from "./integer.ts";

interface Tunable {
  fallback: number;
  min: number;
  max: number;
}

const hourMs = 60 * 60 * 1000;
const dayMs = 24 * hourMs;
const centsMax = Number.MAX_SAFE_INTEGER;

export const tunables = {
  SAGA_FIRST_CHECK_MS: { fallback: 30_000, min: 10, max: dayMs },
  SAGA_MAX_CHECK_MS: { fallback: 900_000, min: 10, max: dayMs },
  SAGA_DEADLINE_MS: { fallback: 7_200_000, min: 100, max: 30 * dayMs },
  PROVIDER_NOT_FOUND_GRACE_MS: { fallback: 300_000, min: 0, max: dayMs },
  /** A provider call longer than two minutes would outlive the Worker request waiting on it. */
  PROVIDER_TIMEOUT_MS: { fallback: 10_000, min: 1, max: 120_000 },
  /** A sandbox payment that takes more than a day to settle is a configuration mistake. */
  SANDBOX_CONFIRM_MS: { fallback: 1_000, min: 0, max: dayMs },
  /** 0 is no limit (no gate); far above any provider's wish, so a typo like 10000 fails loudly. */
  PROVIDER_SEND_CONCURRENCY: { fallback: 0, min: 0, max: 1_000 },
  OPS_CREDIT_APPROVAL_ABOVE_CENTS: { fallback: 1_000_000, min: 0, max: centsMax },
  EVENTS_RETRY_FIRST_MS: { fallback: 10_000, min: 10, max: hourMs },
  MAX_TRANSFER_CENTS: { fallback: 10_000_000, min: 1, max: centsMax },
  DAILY_LIMIT_CENTS: { fallback: 5_000_000, min: 0, max: centsMax },
  NIGHT_TRANSFER_LIMIT_CENTS: { fallback: 100_000, min: 1, max: centsMax },
  NIGHT_TOTAL_LIMIT_CENTS: { fallback: 100_000, min: 0, max: centsMax },
  VELOCITY_MAX_PER_10_MIN: { fallback: 30, min: 1, max: 100_000 },
  NEW_KEY_REVIEW_ABOVE_CENTS: { fallback: 500_000, min: 0, max: centsMax },
  /** Each open stream holds a slot of its account's object, renewed while it lives (docs/events.md). */
  MAX_STREAMS_PER_ACCOUNT: { fallback: 10, min: 1, max: 1_000 },
  /** 0 trusts at once (a test's choice); a month is far past any waiting period a bank asks for. */
  TRUSTED_RECIPIENT_DELAY_MS: { fallback: dayMs, min: 0, max: 30 * dayMs },
  /** The Central Bank's cap on a device not yet registered: R$ 200 per transfer, R$ 1,000 a day. */
  NEW_DEVICE_TRANSFER_LIMIT_CENTS: { fallback: 20_000, min: 1, max: centsMax },
  NEW_DEVICE_DAILY_LIMIT_CENTS: { fallback: 100_000, min: 0, max: centsMax },
  /** 0 makes a client's registration effective at once; a month is already longer than any rule asks. */
  DEVICE_REGISTRATION_DELAY_MS: { fallback: dayMs, min: 0, max: 30 * dayMs },
  /** Waiting schedules per account; each is a row the sweeper and the account's list carry. */
  MAX_PENDING_SCHEDULED: { fallback: 100, min: 1, max: 10_000 },
} as const satisfies Record<string, Tunable>;

export type TunableName = keyof typeof tunables;

/** The variable as set, or its default when absent or empty; a value out of bounds throws. */
export function readTunable(name: TunableName, raw: string | undefined): number {
  const { fallback, min, max } = tunables[name];
  return readIntegerVariable(name, raw, fallback, min, max);
}
