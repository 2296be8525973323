// Saga timings: the backoff of status checks and the deadline. Parsed and bounded once per
// isolate by src/config/ (saga-timings.ts); the pure core only receives the numbers.

export interface SagaTimings {
  firstCheckDelayMs: number;
  checkDelayMsMax: number;
  deadlineMs: number;
  notFoundGraceMs: number;
}

/** Delay before status check number `checksMade` (0-based): min(first * 2^n, max). */
export function checkDelayMs(checksMade: number, timings: SagaTimings): number {
  // 2^n overflows to Infinity for large n; Math.min keeps it at the cap.
  return Math.min(timings.firstCheckDelayMs * 2 ** checksMade, timings.checkDelayMsMax);
}
