// Saga timings from the environment, parsed and bounded once, so a bad value fails at startup
// rather than in the middle of a transfer.
import { readIntegerVariable } from "../config.ts";

export interface SagaTimings {
  firstCheckDelayMs: number;
  checkDelayMsMax: number;
  deadlineMs: number;
  notFoundGraceMs: number;
}

export interface TimingSource {
  SAGA_FIRST_CHECK_MS?: string | undefined;
  SAGA_MAX_CHECK_MS?: string | undefined;
  SAGA_DEADLINE_MS?: string | undefined;
  PROVIDER_NOT_FOUND_GRACE_MS?: string | undefined;
}

const dayMs = 24 * 60 * 60 * 1000;

export function readSagaTimings(source: TimingSource): SagaTimings {
  const firstCheckDelayMs = readIntegerVariable("SAGA_FIRST_CHECK_MS", source.SAGA_FIRST_CHECK_MS, 30_000, 10, dayMs);
  const checkDelayMsMax = readIntegerVariable("SAGA_MAX_CHECK_MS", source.SAGA_MAX_CHECK_MS, 900_000, 10, dayMs);
  const deadlineMs = readIntegerVariable("SAGA_DEADLINE_MS", source.SAGA_DEADLINE_MS, 7_200_000, 100, 30 * dayMs);
  const notFoundGraceMs = readIntegerVariable("PROVIDER_NOT_FOUND_GRACE_MS", source.PROVIDER_NOT_FOUND_GRACE_MS, 300_000, 0, dayMs);
  if (checkDelayMsMax < firstCheckDelayMs) {
    throw new Error("configuration: SAGA_MAX_CHECK_MS must be at least SAGA_FIRST_CHECK_MS");
  }
  return { firstCheckDelayMs, checkDelayMsMax, deadlineMs, notFoundGraceMs };
}

/** Delay before status check number `checksMade` (0-based): min(first * 2^n, max). */
export function checkDelayMs(checksMade: number, timings: SagaTimings): number {
  // 2^n overflows to Infinity for large n; Math.min keeps it at the cap.
  return Math.min(timings.firstCheckDelayMs * 2 ** checksMade, timings.checkDelayMsMax);
}
