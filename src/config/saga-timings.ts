// Saga timings from the environment (CONTRACT §1), bounded so a bad value is a configuration
// problem at the first request rather than a surprise in the middle of a transfer.
import type { SagaTimings } from "../saga/timings.ts";
import { readIntegerVariable } from "./integer.ts";

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
