// What every metric needs: the cluster, a way to report progress, and the CPU meter.
import type { BenchCluster } from "./cluster.ts";
import { type CpuMeter, describeShare } from "./cpu.ts";
import type { SideBySideOptions } from "./load.ts";
import type { WhatIf } from "./what-if.ts";

export interface BenchContext {
  cluster: BenchCluster;
  cpu: CpuMeter;
  /** A scratch directory of this run, removed at the end. */
  workDir: string;
  log(line: string): void;
  /** Registers a stop for the bench's shutdown too: a Ctrl-C must not orphan a Worker stack. */
  own(stop: () => Promise<void>): void;
  /** `--statements`: pg_stat_statements is loaded, and sections log their heaviest statements. */
  statements: boolean;
  /** `--raw-beside`: the throughput section runs a raw UPDATE beside its load (bench/lib/raw-probe.ts). */
  rawBeside: boolean;
  /** `--what-if`: SQL the bench's database ran after its migrations (bench/lib/what-if.ts), or null. */
  whatIf: WhatIf | null;
}

/**
 * Round hooks that log each round's rate and where the CPU went during it; with `cpuMsPerOp`,
 * they also collect, per variant, the CPU one operation cost the bench's own processes
 * (PostgreSQL, the proxy, the client): on a CPU-bound machine that ratio sets the rate ratio.
 * `postgresCpuMsPerOp` collects PostgreSQL's share alone (the cost rows' reference).
 */
export function loggedRounds(
  context: BenchContext,
  label: string,
  cpuMsPerOp?: Map<string, number[]>,
  postgresCpuMsPerOp?: Map<string, number[]>,
): Pick<SideBySideOptions, "beforeRound" | "onRound"> {
  return {
    beforeRound: () => context.cpu.begin(),
    onRound: (variant, round, ratePerS) => {
      const share = context.cpu.end();
      context.log(`${label} round ${round} ${variant}: ${ratePerS.toFixed(0)}/s; ${describeShare(share)}`);
      const ownCores = share.postgresCores + share.proxyCores + share.clientCores;
      cpuMsPerOp?.set(variant, [...(cpuMsPerOp.get(variant) ?? []), (ownCores / ratePerS) * 1000]);
      postgresCpuMsPerOp?.set(variant, [...(postgresCpuMsPerOp.get(variant) ?? []), (share.postgresCores / ratePerS) * 1000]);
    },
  };
}
