// The bounds on live streams (GET /v1/transfers/:id/events, CONTRACT §2): at most
// MAX_STREAMS_PER_ACCOUNT open per account (10 here, the default) across its transfers, and 20
// per transfer; past either 429 problem+json with Retry-After; exact when opens race; and a
// slot given back whenever a stream ends (the client closes it, a terminal state).
import { createExecutionContext, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sleep } from "../../src/lib/sleep.ts";
import { streamLifetimeMsMax, streamsPerTransferMax } from "../../src/saga-runtime/event-stream.ts";
import worker from "../../src/worker.ts";
import { expectProblem } from "../api/helpers.ts";
import { baseUrl, clientHeaders, fundedAccount } from "../support/api.ts";
import { sandboxKeys } from "../support/faults.ts";
import { filePool } from "../support/pool-test.ts";
import { openWithoutObject } from "../support/saga.ts";
import { cancel, saoPauloDayFromToday, scheduledBody, scheduleTransfer } from "../support/schedule.ts";

const pool = filePool(2);
const defaultStreamsPerAccount = 10;

/** Transfers of one new account that hold their funds and stay where they are (a silent key). */
async function liveTransfers(count: number): Promise<{ accountId: string; ids: string[] }> {
  const accountId = await fundedAccount(count * 1_000);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await openWithoutObject(pool, accountId, 1_000, sandboxKeys.silent.pix_key)).id);
  return { accountId, ids };
}

/** Opens a stream as the Worker serves it; `environment` gives a test its own configuration. */
async function openStream(accountId: string, transferId: string, environment: Env = env): Promise<Response> {
  const request = new Request(`${baseUrl}/v1/transfers/${transferId}/events`, { headers: await clientHeaders(accountId) });
  return worker.fetch(request, environment, createExecutionContext());
}

/** Reads a stream to its end: true once the server closed it. */
async function endOf(response: Response): Promise<boolean> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  while (!(await reader.read()).done);
  return true;
}

/** The account's slots held now, polled until `count` (a slot comes back when the object sees the stream end). */
async function slotsHeldReach(accountId: string, count: number): Promise<number> {
  const slots = env.STREAM_SLOTS.getByName(accountId);
  const giveUpAtMs = Date.now() + 5_000;
  let held = await slots.held();
  while (held !== count && Date.now() < giveUpAtMs) {
    await sleep(20);
    held = await slots.held();
  }
  return held;
}

async function expectCapped(response: Response): Promise<void> {
  const retryAfterSeconds = Number(response.headers.get("retry-after"));
  await expectProblem(response, 429, "rate-limited");
  expect(Number.isInteger(retryAfterSeconds)).toBe(true);
  expect(retryAfterSeconds).toBeGreaterThanOrEqual(1);
  expect(retryAfterSeconds).toBeLessThanOrEqual(streamLifetimeMsMax / 1000);
}

function statuses(responses: readonly Response[]): Record<number, number> {
  const counted: Record<number, number> = {};
  for (const response of responses) counted[response.status] = (counted[response.status] ?? 0) + 1;
  return counted;
}

/** The client goes away from every stream that opened (a refusal's body was read already). */
async function closeAll(responses: readonly Response[]): Promise<void> {
  await Promise.all(responses.filter((response) => response.status === 200).map((response) => response.body?.cancel()));
}

describe("the caps on live streams", () => {
  it("refuses an account's 11th stream across its transfers with 429 and Retry-After, and opens it once one is closed", async () => {
    const { accountId, ids } = await liveTransfers(defaultStreamsPerAccount + 1);
    const open: Response[] = [];
    for (const id of ids.slice(0, defaultStreamsPerAccount)) open.push(await openStream(accountId, id));
    expect(open.map((response) => response.status)).toEqual(Array(defaultStreamsPerAccount).fill(200));
    const eleventh = ids[defaultStreamsPerAccount] ?? "";
    await expectCapped(await openStream(accountId, eleventh));
    // The client goes away: its slot comes back, and the refused stream now opens.
    await open.shift()?.body?.cancel();
    expect(await slotsHeldReach(accountId, defaultStreamsPerAccount - 1)).toBe(defaultStreamsPerAccount - 1);
    const reopened = await openStream(accountId, eleventh);
    expect(reopened.status).toBe(200);
    await closeAll([...open, reopened]);
    expect(await slotsHeldReach(accountId, 0)).toBe(0);
  });

  it("opens exactly 10 of 15 streams opened at once, on the same transfers and on others", async () => {
    const { accountId, ids } = await liveTransfers(3);
    const racing = await Promise.all(Array.from({ length: 15 }, (_, i) => openStream(accountId, ids[i % ids.length] ?? "")));
    expect(statuses(racing)).toEqual({ 200: defaultStreamsPerAccount, 429: 5 });
    expect(await env.STREAM_SLOTS.getByName(accountId).held()).toBe(defaultStreamsPerAccount);
    await expectCapped(racing.find((response) => response.status === 429) as Response);
    await closeAll(racing);
    expect(await slotsHeldReach(accountId, 0)).toBe(0);
  });

  it("refuses a transfer's 21st stream with 429 and Retry-After, exactly, when the account may hold more", async () => {
    // An account allowed 30: the transfer's own cap of 20 is the one reached.
    const roomy = { ...env, MAX_STREAMS_PER_ACCOUNT: "30" };
    const { accountId, ids } = await liveTransfers(1);
    const id = ids[0] ?? "";
    const racing = await Promise.all(Array.from({ length: streamsPerTransferMax + 2 }, () => openStream(accountId, id, roomy)));
    expect(statuses(racing)).toEqual({ 200: streamsPerTransferMax, 429: 2 });
    await expectCapped(await openStream(accountId, id, roomy));
    // The refused opens took no slot of the account: only the open streams hold one.
    expect(await env.STREAM_SLOTS.getByName(accountId).held()).toBe(streamsPerTransferMax);
    await closeAll(racing);
    expect(await slotsHeldReach(accountId, 0)).toBe(0);
  });

  it("gives back the slot of a stream that ended with its transfer's terminal state", async () => {
    const accountId = await fundedAccount(10_000);
    const created = await scheduleTransfer(accountId, scheduledBody(saoPauloDayFromToday(1)));
    const { id } = await created.json<{ id: string }>();
    const stream = await openStream(accountId, id);
    expect(stream.status).toBe(200);
    expect(await env.STREAM_SLOTS.getByName(accountId).held()).toBe(1);
    expect((await cancel(accountId, id)).status).toBe(200);
    expect(await endOf(stream)).toBe(true);
    expect(await slotsHeldReach(accountId, 0)).toBe(0);
  });
});
