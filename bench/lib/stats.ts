// Percentiles over latency samples (nearest rank: no interpolation between two real samples).

export function percentile(samplesMs: readonly number[], fraction: number): number {
  if (samplesMs.length === 0) throw new Error("percentile of no samples");
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

export interface LatencySummary {
  p50Ms: number;
  p99Ms: number;
}

export function summarise(samplesMs: readonly number[]): LatencySummary {
  return { p50Ms: percentile(samplesMs, 0.5), p99Ms: percentile(samplesMs, 0.99) };
}
