// The overview answers one entry per minute; a chart of a day would be 1,440 bars too thin to
// see. Minutes are summed into buckets of a round size, so every window draws at most about 60
// bars, and the time axis is labelled in UTC, as every time in the console is.

/** One bar's worth of counts, at the start of its minute or bucket. */
export interface TimePoint<Key extends string> {
  atMs: number;
  values: Record<Key, number>;
}

const minuteMs = 60_000;
const barsMax = 60;
const bucketSizesMinutes = [1, 2, 5, 10, 15, 30, 60, 120];

/** The smallest round bucket that keeps the window to at most 60 bars: 15 and 60 min by minute, a day by 30 min. */
export function bucketMinutesFor(windowMinutes: number): number {
  return bucketSizesMinutes.find((size) => windowMinutes / size <= barsMax) ?? Math.ceil(windowMinutes / barsMax);
}

/** Sums consecutive points into buckets aligned to the clock (14:00, 14:30…); the first and last may be partial. */
export function bucketed<Key extends string>(points: readonly TimePoint<Key>[], bucketMinutes: number): TimePoint<Key>[] {
  const bucketMs = bucketMinutes * minuteMs;
  const buckets: TimePoint<Key>[] = [];
  for (const point of points) {
    const atMs = Math.floor(point.atMs / bucketMs) * bucketMs;
    const last = buckets[buckets.length - 1];
    if (last !== undefined && last.atMs === atMs) {
      for (const key of Object.keys(point.values) as Key[]) last.values[key] += point.values[key];
    } else {
      buckets.push({ atMs, values: { ...point.values } });
    }
  }
  return buckets;
}

/** "14:05": a bucket's start in UTC. */
export function clockLabel(atMs: number): string {
  return new Date(atMs).toISOString().slice(11, 16);
}

/** Which bars carry a time label: about `labelsMax`, evenly spaced, the first always. */
export function labelledIndexes(count: number, labelsMax = 5): number[] {
  if (count === 0) return [];
  const every = Math.max(1, Math.ceil(count / labelsMax));
  return Array.from({ length: Math.ceil(count / every) }, (_, i) => i * every);
}
