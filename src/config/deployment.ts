// Which deployment this is, and the test seams it may not have (CONTRACT §1). wrangler.toml's
// top-level [vars] say DEPLOYMENT = "production" (what a bare `wrangler deploy` ships) and
// [env.local] says "local" (npm start, the tests). A var set in wrangler.toml cannot be
// replaced by a secret of the same name, so one `wrangler secret put` cannot change it.
//
// In production the sandbox is a misconfiguration, not a switch: SANDBOX_PROVIDER=on there
// would otherwise turn every production rule off at once. A local database relay (NEON_WS_PROXY,
// or a database that is not one of Neon's endpoints, reached over https:/wss:) is one too,
// unless the deployment is local: it sends the connection string, password included, over
// plain HTTP. Locally, with the sandbox off and a complete configuration, the relay is how the
// production rules are tried on one machine.
import { isSet, type Problems } from "./problems.ts";

export interface DeploymentSource {
  DEPLOYMENT?: string | undefined;
  DATABASE_URL?: string | undefined;
  NEON_WS_PROXY?: string | undefined;
}

/** Neon's own endpoints; the driver reaches them over wss: and https: unless a relay is set. */
const neonHostSuffix = ".neon.tech";

export function checkDeployment(env: DeploymentSource, sandboxEnabled: boolean, problems: Problems): void {
  const deployment = env.DEPLOYMENT?.trim();
  if (deployment === "production" && sandboxEnabled) {
    problems.add(
      "SANDBOX_PROVIDER",
      "SANDBOX_PROVIDER is on in the production deployment (DEPLOYMENT=production): the sandbox is local only",
    );
  }
  // Only a deployment marked local may use a relay with the sandbox off; production never may.
  const relayAllowed = deployment !== "production" && (sandboxEnabled || deployment === "local");
  if (relayAllowed) return;
  if (isSet(env.NEON_WS_PROXY)) {
    problems.add("NEON_WS_PROXY", "NEON_WS_PROXY is set: a local database relay, never for production");
  } else if (isSet(env.DATABASE_URL) && !isNeonEndpoint(env.DATABASE_URL)) {
    problems.add("DATABASE_URL", `DATABASE_URL is not a Neon endpoint (*${neonHostSuffix}): a local database, never for production`);
  }
}

function isNeonEndpoint(databaseUrl: string): boolean {
  const url = URL.parse(databaseUrl.trim());
  if (url === null || (url.protocol !== "postgres:" && url.protocol !== "postgresql:")) return false;
  return url.hostname.toLowerCase().endsWith(neonHostSuffix);
}
