// Black-box helpers for contestations (CONTRACT §2 "Contestations"): contest as the client does,
// read, and wait for a state or a refund. Every wait polls the public API (alarms run in real time).
import { expect } from "vitest";
import { sleep } from "../../src/lib/sleep.ts";
import { call, clientHeaders } from "./api.ts";

export type ContestationJson = {
  id: string;
  transfer_id: string;
  state: string;
  reason: string;
  details: string;
  created_at: string;
  submitted_at: string | null;
  decided_at: string | null;
  deadline_at: string;
  returned_cents: number;
};

export const claim = { reason: "scam", details: "Fake seller on a marketplace; never delivered." } as const;

export async function contest(
  accountId: string,
  transferId: string,
  body: unknown = claim,
  idempotencyKey: string = crypto.randomUUID(),
): Promise<Response> {
  return call(`/v1/transfers/${transferId}/contestations`, {
    method: "POST",
    headers: await clientHeaders(accountId, { "idempotency-key": idempotencyKey }),
    body: JSON.stringify(body),
  });
}

/** Contests and expects the 201; the contestation as first answered. */
export async function contested(accountId: string, transferId: string, body: unknown = claim): Promise<ContestationJson> {
  const response = await contest(accountId, transferId, body);
  expect(response.status, await response.clone().text()).toBe(201);
  return response.json<ContestationJson>();
}

export async function getContestation(accountId: string, id: string): Promise<ContestationJson> {
  const response = await call(`/v1/contestations/${id}`, { headers: await clientHeaders(accountId) });
  if (response.status !== 200) throw new Error(`GET contestation answered ${response.status}`);
  return response.json<ContestationJson>();
}

/** Polls until `done`; fails with where it stuck. */
export async function waitForContestation(
  accountId: string,
  id: string,
  done: (c: ContestationJson) => boolean,
  timeoutMs = 15_000,
): Promise<ContestationJson> {
  const giveUpAtMs = Date.now() + timeoutMs;
  for (;;) {
    const contestation = await getContestation(accountId, id);
    if (done(contestation)) return contestation;
    if (Date.now() > giveUpAtMs)
      throw new Error(`contestation ${id} stuck in ${contestation.state} (${contestation.returned_cents} returned)`);
    await sleep(50);
  }
}
