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

/** Sagas learn their outcome from quick status checks; the deadline is beyond any run. */
export const polledTimings = { SAGA_FIRST_CHECK_MS: "50", SAGA_MAX_CHECK_MS: "1000", SAGA_DEADLINE_MS: "600000" };

/** Only the bench's webhook may move a transfer: the first status check is an hour away. */
export const webhookDrivenTimings = {
  SAGA_FIRST_CHECK_MS: "3600000",
  SAGA_MAX_CHECK_MS: "3600000",
  SAGA_DEADLINE_MS: "7200000",
  SANDBOX_CONFIRM_MS: "0",
};
