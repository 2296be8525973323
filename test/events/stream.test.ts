// The live stream (GET /v1/transfers/:id/events): the current resource first, each change as
// the saga object commits it (another writer's too, once the object learns of it), the end
// after a terminal state, a resume with Last-Event-ID without a gap, and nothing for another
// account's transfer.
import { env } from "cloudflare:test";
import type { Pool } from "@neondatabase/serverless";
import { describe, expect, it } from "vitest";
import { EventStreams, streamLifetimeMsMax, streamSlotLeaseMs } from "../../src/saga-runtime/event-stream.ts";
import { accountStreamSlots } from "../../src/saga-runtime/stream-slot.ts";
import { call, clientHeaders, fundedAccount, opsCall } from "../support/api.ts";
import { filePool } from "../support/pool-test.ts";
import { heldTransfer, transferApplyDirectly } from "../support/saga.ts";
import { cancel, saoPauloDayFromToday, scheduledBody, scheduleTransfer } from "../support/schedule.ts";

const pool = filePool(2);

/** Until another session waits on a lock that the session `holderPid` holds. */
async function waitForLockWaiter(db: Pool, holderPid: number): Promise<void> {
  for (let tries = 0; tries < 400; tries++) {
    const { rows } = await db.query<{ waiting: boolean }>(
      "SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE $1 = ANY (pg_blocking_pids(pid))) AS waiting",
      [holderPid],
    );
    if (rows[0]?.waiting) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no session waited on session ${holderPid}'s locks`);
}

interface SseMessage {
  id: number;
  event: string;
  state: string;
  historyLength: number;
}

/** Reads server-sent events off a stream, one message at a time. */
class SseReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private buffered = "";

  constructor(body: ReadableStream<Uint8Array>) {
    this.reader = body.getReader();
  }

  /** The next message with data, or null when the stream ended. */
  async next(): Promise<SseMessage | null> {
    for (;;) {
      const boundary = this.buffered.indexOf("\n\n");
      if (boundary >= 0) {
        const block = this.buffered.slice(0, boundary);
        this.buffered = this.buffered.slice(boundary + 2);
        const fields = new Map(
          block.split("\n").map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trim()]),
        );
        const data = fields.get("data");
        if (data === undefined) continue;
        const resource = JSON.parse(data) as { state: string; history: unknown[] };
        return {
          id: Number(fields.get("id")),
          event: fields.get("event") ?? "",
          state: resource.state,
          historyLength: resource.history.length,
        };
      }
      const { done, value } = await this.reader.read();
      if (done) return null;
      this.buffered += this.decoder.decode(value, { stream: true });
    }
  }

  cancel(): Promise<void> {
    return this.reader.cancel();
  }
}

/** CONTRACT §2: each change reaches the stream "within a second". A contract bound, not a speed claim. */
const changeReachesClientMsMax = 1_000;

function withinASecond<T>(next: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no message within ${changeReachesClientMsMax} ms`)), changeReachesClientMsMax);
  });
  return Promise.race([next, late]).finally(() => clearTimeout(timer));
}

async function openStream(accountId: string, transferId: string, lastEventId?: string): Promise<Response> {
  const headers = await clientHeaders(accountId, lastEventId === undefined ? {} : { "last-event-id": lastEventId });
  return call(`/v1/transfers/${transferId}/events`, { headers });
}

describe("the live stream of a transfer", () => {
  it("sends the current resource, then each change as the saga commits it, and ends after completed", async () => {
    const { accountId, id } = await heldTransfer(pool);
    const response = await openStream(accountId, id);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const stream = new SseReader(response.body as ReadableStream<Uint8Array>);
    expect(await stream.next()).toEqual({ id: 2, event: "transfer.updated", state: "funds_reserved", historyLength: 2 });
    // The saga sends: the change is on the stream when the step returns, with no poll behind it.
    const saga = env.TRANSFER_SAGA.getByName(id);
    expect((await saga.poke("sweeper")).state).toBe("submitted");
    expect(await withinASecond(stream.next())).toEqual({ id: 3, event: "transfer.updated", state: "submitted", historyLength: 3 });
    // The silent key never sends a webhook: a poke (as the sweeper or a webhook would) confirms it.
    while ((await saga.poke("webhook")).state === "submitted");
    expect(await withinASecond(stream.next())).toEqual({ id: 4, event: "transfer.updated", state: "completed", historyLength: 4 });
    expect(await stream.next()).toBeNull();
  });

  it("resumes with Last-Event-ID from the next event, without a gap, and ends at once after a terminal one", async () => {
    const { accountId, id } = await heldTransfer(pool);
    const saga = env.TRANSFER_SAGA.getByName(id);
    while ((await saga.poke("webhook")).state !== "completed");
    const resumed = new SseReader((await openStream(accountId, id, "1")).body as ReadableStream<Uint8Array>);
    const ids: number[] = [];
    for (let m = await resumed.next(); m !== null; m = await resumed.next()) ids.push(m.id);
    expect(ids).toEqual([2, 3, 4]);
    const after = new SseReader((await openStream(accountId, id, "4")).body as ReadableStream<Uint8Array>);
    expect(await after.next()).toBeNull();
  });

  it("tries a push lost to a database fault once more, so the change still arrives within a second", async () => {
    const { accountId, id } = await heldTransfer(pool);
    let failNext = false;
    const streams = new EventStreams(id, async (work) => {
      if (!failNext) return work(pool);
      failNext = false;
      throw new Error("Connection terminated unexpectedly");
    });
    const slots = accountStreamSlots(env.STREAM_SLOTS, accountId, {
      limit: 10,
      leaseMs: streamSlotLeaseMs,
      lifetimeMs: streamLifetimeMsMax,
    });
    const opened = await streams.open(null, slots);
    if (opened.outcome !== "opened") throw new Error(`stream not opened: ${opened.outcome}`);
    const stream = new SseReader(opened.stream);
    expect((await stream.next())?.state).toBe("funds_reserved");
    // The change commits through the transfer's own object; this stream's push then hits a fault.
    expect((await env.TRANSFER_SAGA.getByName(id).poke("sweeper")).state).toBe("submitted");
    failNext = true;
    await streams.notify();
    expect(failNext).toBe(false);
    expect(await withinASecond(stream.next())).toEqual({ id: 3, event: "transfer.updated", state: "submitted", historyLength: 3 });
    await stream.cancel();
  });

  it("gets another writer's change when an operator's resolve loses the race to it", async () => {
    const { accountId, id } = await heldTransfer(pool);
    const stream = new SseReader((await openStream(accountId, id)).body as ReadableStream<Uint8Array>);
    expect((await stream.next())?.state).toBe("funds_reserved");
    // Held for review before sending, behind the object's back: nothing pushes this change.
    await transferApplyDirectly(pool, id, "funds_reserved", ["needs_review"], null);
    // Another writer releases it and holds the row until the operator's resolve waits on it.
    const writer = await pool.connect();
    try {
      const { rows } = await writer.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      await writer.query("BEGIN");
      await transferApplyDirectly(writer, id, "needs_review", ["compensated"], "release", "not_sent");
      const resolving = opsCall(`/ops/transfers/${id}/resolve`, {
        method: "POST",
        body: JSON.stringify({ outcome: "not_sent", note: "race" }),
      });
      await waitForLockWaiter(pool, rows[0]?.pid ?? 0);
      await writer.query("COMMIT");
      const answer = await resolving;
      expect(answer.status).toBe(409);
      await answer.body?.cancel();
    } finally {
      // After a failure above, nothing of the writer's stays open for the next test.
      await writer.query("ROLLBACK").catch(() => undefined);
      writer.release();
    }
    // The resolve found the transfer moved on; its object tells the stream all that changed.
    const states: string[] = [];
    for (let m = await withinASecond(stream.next()); m !== null; m = await withinASecond(stream.next())) states.push(m.state);
    expect(states).toEqual(["needs_review", "compensated"]);
  });

  it("streams a scheduled transfer and ends after it is canceled", async () => {
    const accountId = await fundedAccount(10_000);
    const created = await scheduleTransfer(accountId, scheduledBody(saoPauloDayFromToday(1)));
    const { id } = await created.json<{ id: string }>();
    const stream = new SseReader((await openStream(accountId, id)).body as ReadableStream<Uint8Array>);
    expect(await stream.next()).toEqual({ id: 1, event: "transfer.updated", state: "scheduled", historyLength: 1 });
    expect((await cancel(accountId, id)).status).toBe(200);
    expect(await stream.next()).toEqual({ id: 2, event: "transfer.updated", state: "canceled", historyLength: 2 });
    expect(await stream.next()).toBeNull();
  });

  it("answers 404 for another account's transfer, 401 without a token, 400 for a Last-Event-ID it never sent", async () => {
    const { accountId, id } = await heldTransfer(pool);
    const other = await fundedAccount(0);
    const foreign = await openStream(other, id);
    expect(foreign.status).toBe(404);
    expect(foreign.headers.get("content-type")).toContain("application/problem+json");
    await foreign.body?.cancel();
    const anonymous = await call(`/v1/transfers/${id}/events`);
    expect(anonymous.status).toBe(401);
    await anonymous.body?.cancel();
    const bad = await openStream(accountId, id, "evt_x");
    expect(bad.status).toBe(400);
    await bad.body?.cancel();
    // The transfer is live at sequence 2: a resume from 9 would hide its next seven changes.
    const ahead = await openStream(accountId, id, "9");
    expect(ahead.status).toBe(400);
    expect(ahead.headers.get("content-type")).toContain("application/problem+json");
    expect(JSON.stringify(await ahead.json())).toContain("Last-Event-ID");
  });
});
