// The value axis of the console's charts: from zero to a round maximum in a few whole steps
// (the charts count things, so a tick is never a fraction), and tick labels short enough for a
// phone however large the count.

/** At most this many steps above zero: five labels fit a phone-sized axis. */
const stepsMax = 4;

/** The smallest of 1, 2, 5, 10, 20, 50… whose `stepsMax` steps reach `max`; 1 for an empty or all-zero chart. */
export function tickStep(max: number): number {
  if (!(max > 0)) return 1;
  const rough = max / stepsMax;
  let magnitude = 10 ** Math.max(0, Math.floor(Math.log10(rough)));
  for (;;) {
    for (const factor of [1, 2, 5]) {
      const step = factor * magnitude;
      if (step * stepsMax >= max) return step;
    }
    magnitude *= 10;
  }
}

/** The axis' ticks, 0 first, the last at or above `max`. */
export function valueTicks(max: number): number[] {
  const step = tickStep(max);
  const steps = max > 0 ? Math.max(1, Math.ceil(max / step)) : 1;
  return Array.from({ length: steps + 1 }, (_, i) => i * step);
}

const suffixes: [number, string][] = [
  [1e12, "T"],
  [1e9, "G"],
  [1e6, "M"],
  [1e3, "k"],
];

/** 950 -> "950", 12_000 -> "12k", 2_500_000 -> "2.5M": at most four characters and a suffix. */
export function formatTickValue(value: number): string {
  for (const [size, suffix] of suffixes) {
    if (Math.abs(value) >= size) return `${Number((value / size).toPrecision(3))}${suffix}`;
  }
  return String(Number(value.toPrecision(3)));
}

/** A duration axis' label: "450 ms", "2.5 s", "3 min". */
export function formatTickDuration(durationMs: number): string {
  if (durationMs < 1_000) return `${durationMs} ms`;
  if (durationMs < 120_000) return `${Number((durationMs / 1_000).toPrecision(3))} s`;
  return `${Number((durationMs / 60_000).toPrecision(3))} min`;
}
