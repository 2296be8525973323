// Retry delays when a step fails on a fault (database down, worker restarting). The object
// arms its own alarm for these, so it keeps trying after the platform's alarm retries run out.
// Jittered: after an outage every saga in flight has met the same faults, and without jitter
// they would all come back in the same instant (chaos saw sends time out in that stampede).
export const faultRetryDelayMsFirst = 1_000;
export const faultRetryDelayMsMax = 60_000;

/**
 * Half the doubling delay for sure, the other half at random ("equal jitter"): never sooner
 * than half the backoff, never later than all of it. `random` returns [0, 1).
 */
export function faultRetryDelayMs(consecutiveFaults: number, random: () => number = Math.random): number {
  const backoffMs = Math.min(faultRetryDelayMsFirst * 2 ** Math.max(0, consecutiveFaults - 1), faultRetryDelayMsMax);
  return Math.round(backoffMs / 2 + random() * (backoffMs / 2));
}
