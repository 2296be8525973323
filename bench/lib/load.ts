// Closed-loop load: N workers each run one operation after another until a deadline. Variants
// are measured side by side, in alternating rounds, so drift on a shared machine (another
// process waking up, the disk cache filling) falls on every variant alike.

export type Operation<W> = (worker: W) => Promise<void>;

export interface Variant<W> {
  name: string;
  op: Operation<W>;
}

export interface RoundResult {
  ops: number;
  elapsedMs: number;
}

export async function closedLoop<W>(workers: readonly W[], durationMs: number, op: Operation<W>): Promise<RoundResult> {
  let ops = 0;
  const startedAtMs = performance.now();
  const deadlineMs = startedAtMs + durationMs;
  await Promise.all(
    workers.map(async (worker) => {
      while (performance.now() < deadlineMs) {
        await op(worker);
        ops++;
      }
    }),
  );
  return { ops, elapsedMs: performance.now() - startedAtMs };
}

export interface SideBySideOptions {
  rounds: number;
  roundMs: number;
  /** Run once per variant before measuring: connections, plans and caches warm up. */
  warmupMs: number;
  /** Hooks around each measured round, e.g. to meter CPU per variant. */
  beforeRound?: (variant: string, round: number) => void;
  onRound?: (variant: string, round: number, ratePerS: number) => void;
}

/** Operations per second for each variant, over all its rounds (total ops / total time). */
export async function sideBySide<W>(
  workers: readonly W[],
  variants: readonly Variant<W>[],
  options: SideBySideOptions,
): Promise<Map<string, number>> {
  for (const variant of variants) await closedLoop(workers, options.warmupMs, variant.op);
  const totals = new Map<string, RoundResult>(variants.map((v) => [v.name, { ops: 0, elapsedMs: 0 }]));
  for (let round = 0; round < options.rounds; round++) {
    // Rotate the order each round (AB, BA, ...), so neither variant always runs first.
    const order = variants.map((_, i) => variants[(i + round) % variants.length]).filter((v): v is Variant<W> => v !== undefined);
    for (const variant of order) {
      options.beforeRound?.(variant.name, round);
      const result = await closedLoop(workers, options.roundMs, variant.op);
      const total = totals.get(variant.name) ?? { ops: 0, elapsedMs: 0 };
      totals.set(variant.name, { ops: total.ops + result.ops, elapsedMs: total.elapsedMs + result.elapsedMs });
      options.onRound?.(variant.name, round, (result.ops / result.elapsedMs) * 1000);
    }
  }
  return new Map([...totals].map(([name, total]) => [name, (total.ops / total.elapsedMs) * 1000]));
}
