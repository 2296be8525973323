// Retry delays when a step fails on a fault (database down, worker restarting). The object
// arms its own alarm for these, so it keeps trying after the platform's alarm retries run out.
export const faultRetryDelayMsFirst = 1_000;
export const faultRetryDelayMsMax = 60_000;

export function faultRetryDelayMs(consecutiveFaults: number): number {
  return Math.min(faultRetryDelayMsFirst * 2 ** Math.max(0, consecutiveFaults - 1), faultRetryDelayMsMax);
}
