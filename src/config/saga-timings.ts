// Saga timings from the environment (CONTRACT §1), bounded so a bad value is a configuration
// problem at the first request rather than a surprise in the middle of a transfer.
import type { SagaTimings } from "../saga/timings.ts";
import { readTunable } from "./tunables.ts";

export interface TimingSource {
  SAGA_FIRST_CHECK_MS?: string | undefined;
  SAGA_MAX_CHECK_MS?: string | undefined;
  SAGA_DEADLINE_MS?: string | undefined;
  PROVIDER_NOT_FOUND_GRACE_MS?: string | undefined;
}

export function readSagaTimings(source: TimingSource): SagaTimings {
  const firstCheckDelayMs = readTunable("SAGA_FIRST_CHECK_MS", source.SAGA_FIRST_CHECK_MS);
  const checkDelayMsMax = readTunable("SAGA_MAX_CHECK_MS", source.SAGA_MAX_CHECK_MS);
  const deadlineMs = readTunable("SAGA_DEADLINE_MS", source.SAGA_DEADLINE_MS);
  const notFoundGraceMs = readTunable("PROVIDER_NOT_FOUND_GRACE_MS", source.PROVIDER_NOT_FOUND_GRACE_MS);
  if (checkDelayMsMax < firstCheckDelayMs) {
    throw new Error("configuration: SAGA_MAX_CHECK_MS must be at least SAGA_FIRST_CHECK_MS");
  }
  return { firstCheckDelayMs, checkDelayMsMax, deadlineMs, notFoundGraceMs };
}
