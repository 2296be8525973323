// `npm run events:crash`: outbound events survive a SIGKILL of the whole local stack. It runs
// `npm start` (its own port and data directory) with EVENTS_URL aimed at a receiver that is not
// listening yet, completes a few transfers (their events pile up, refused), SIGKILLs every
// process of the stack (postgres, wrangler, workerd) at once, starts the receiver, restarts the
// stack on the same data, and requires every event of every transfer to arrive: signed (checked
// with the official standardwebhooks package), in order, acknowledged once per sequence. The
// test clock's offset, advanced a day before the crash, must be there after it too: business
// time is kept in the database, never in a process (docs/clock.md).
import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Webhook } from "standardwebhooks";
import { sleep } from "../src/lib/sleep.ts";
import { startEventReceiver } from "./lib/event-receiver.ts";
import { freePort, isPortFree } from "./lib/free-port.ts";
import { jsonCall } from "./lib/json-call.ts";
import { mintAccountToken } from "./lib/jwt.ts";
import { spawnNpmStart, waitForReadyLine } from "./lib/npm-start.ts";
import { descendantsOf, listProcesses } from "./lib/proc-table.ts";
import { stopGroup } from "./lib/process-group.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const transfersCount = 4;
const readyTimeoutMs = 120_000;
/** The cron sweeper runs every minute; a restart may have to wait for it once. */
const deliveryTimeoutMs = 180_000;
const eventsSecret = "whsec_Y3Jhc2gtdGVzdC1ldmVudHMtc2VjcmV0LTAxMjM=";
const jwtSecret = "crash-test-jwt-secret-0123456789abcdef0123";
const opsToken = "crash-test-ops-token-0123456789abcdef";

/** How far the test clock is moved before the crash; the restarted stack must still be that far ahead. */
const clockAdvanceMs = 86_400_000;

interface ClockAnswer {
  now: string;
  offset_ms: number;
}

const log = (line: string): void => console.log(`[events-crash] ${line}`);

function startStack(port: number, dataDir: string, eventsUrl: string): { child: ChildProcess; ready: Promise<void> } {
  const child = spawnNpmStart(root, {
    PORT: String(port),
    PIX_DATA_DIR: dataDir,
    EVENTS_URL: eventsUrl,
    EVENTS_SECRET: eventsSecret,
    EVENTS_RETRY_FIRST_MS: "200",
    JWT_SECRET: jwtSecret,
    OPS_TOKEN: opsToken,
    SAGA_FIRST_CHECK_MS: "300",
    SANDBOX_CONFIRM_MS: "100",
  });
  const ready = waitForReadyLine(child, readyTimeoutMs, (line) => {
    if (process.env.EVENTS_CRASH_VERBOSE === "1" || /error|fail/i.test(line)) console.log(`  | ${line}`);
  }).then(() => undefined);
  return { child, ready };
}

async function makeTransfers(base: string): Promise<string[]> {
  const accountId = `crash-${Date.now()}`;
  await jsonCall(base, "PUT", `/ops/accounts/${accountId}`, opsToken);
  await jsonCall(base, "POST", `/ops/accounts/${accountId}/credits`, opsToken, {
    amount_cents: 100_000,
    idempotency_key: `seed-${accountId}`,
  });
  const token = mintAccountToken(accountId, jwtSecret, 3600);
  const ids: string[] = [];
  for (let i = 0; i < transfersCount; i += 1) {
    const created = await jsonCall<{ id: string }>(
      base,
      "POST",
      "/v1/transfers",
      token,
      { amount_cents: 1_000 + i, pix_key: "100.000.001-08", pix_key_type: "cpf" },
      { "idempotency-key": `crash-${i}` },
    );
    ids.push(created.id);
  }
  // Every saga completes (4 events each), none of which can be delivered yet.
  const deadline = Date.now() + 60_000;
  for (const id of ids) {
    while ((await jsonCall<{ state: string }>(base, "GET", `/v1/transfers/${id}`, token)).state !== "completed") {
      if (Date.now() > deadline) throw new Error(`transfer ${id} did not complete`);
      await sleep(200);
    }
  }
  return ids;
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "pix-events-crash-"));
  const port = await freePort();
  const receiverPort = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const eventsUrl = `http://127.0.0.1:${receiverPort}/events`;
  let stack = startStack(port, dataDir, eventsUrl);
  let receiver: Awaited<ReturnType<typeof startEventReceiver>> | null = null;
  try {
    await stack.ready;
    log(`stack ready on ${base}; the receiver at ${eventsUrl} is down`);
    const ids = await makeTransfers(base);
    log(`${ids.length} transfers completed; their events are refused`);
    const advanced = await jsonCall<ClockAnswer>(base, "POST", "/sandbox/clock", "", { advance_ms: clockAdvanceMs });
    log(`test clock advanced: offset ${advanced.offset_ms} ms`);
    const pid = stack.child.pid ?? 0;
    // Every process the stack started, whatever its group (postgres and workerd may have their own).
    const victims = [pid, ...descendantsOf(pid, listProcesses()).map((entry) => entry.pid)];
    for (const victim of victims) {
      try {
        process.kill(victim, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
    await stopGroup(pid, 5_000);
    while (descendantsOf(pid, listProcesses()).some((entry) => entry.state !== "Z") || !(await isPortFree(port))) {
      await sleep(100);
    }
    log(`SIGKILL to the whole stack (${victims.length} processes)`);
    receiver = await startEventReceiver({ port: receiverPort });
    stack = startStack(port, dataDir, eventsUrl);
    await stack.ready;
    log("stack restarted on the same data; the receiver is up");
    const clock = await jsonCall<ClockAnswer>(base, "GET", "/sandbox/clock", "");
    if (clock.offset_ms !== advanced.offset_ms)
      throw new Error(`the test clock's offset was ${advanced.offset_ms} ms before the crash, ${clock.offset_ms} ms after`);
    log(`test clock kept across the crash: offset ${clock.offset_ms} ms`);
    const webhook = new Webhook(eventsSecret);
    const deadline = Date.now() + deliveryTimeoutMs;
    for (;;) {
      const acknowledged = new Map<string, number[]>();
      for (const r of receiver.received) {
        webhook.verify(r.body, r.headers);
        const event = JSON.parse(r.body) as { sequence: number; data: { id: string } };
        const seen = acknowledged.get(event.data.id) ?? [];
        if (event.sequence > (seen.at(-1) ?? 0) + 1)
          throw new Error(`transfer ${event.data.id}: ${event.sequence} before ${(seen.at(-1) ?? 0) + 1}`);
        if (event.sequence === (seen.at(-1) ?? 0) + 1) seen.push(event.sequence);
        acknowledged.set(event.data.id, seen);
      }
      const done = ids.every((id) => (acknowledged.get(id) ?? []).join() === "1,2,3,4");
      if (done) {
        log(`all ${ids.length * 4} events delivered, verified and in order (${receiver.received.length} deliveries) after the crash`);
        break;
      }
      if (Date.now() > deadline) throw new Error(`not delivered: ${JSON.stringify([...acknowledged])}`);
      await sleep(500);
    }
  } finally {
    if (stack.child.pid !== undefined) await stopGroup(stack.child.pid, 10_000);
    await receiver?.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
