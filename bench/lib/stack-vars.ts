// Worker variables for a bench stack: this run's database, proxy and secrets, the sandbox on,
// and the saga timings the metric needs. Limits stay at their defaults: the load is spread over
// enough accounts that no per-account limit is reached.
import type { StackSecrets } from "./api.ts";
import { secretVars } from "./api.ts";
import type { BenchCluster } from "./cluster.ts";

export function stackVars(cluster: BenchCluster, secrets: StackSecrets, timings: Record<string, string>): Map<string, string> {
  return new Map<string, string>([
    ["DATABASE_URL", cluster.databaseUrl],
    ["NEON_WS_PROXY", cluster.wsProxy],
    ["SANDBOX_PROVIDER", "on"],
    ...secretVars(secrets),
    ...Object.entries(timings),
  ]);
}
