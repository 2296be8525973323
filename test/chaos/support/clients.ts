// A mobile client as the contract asks it to behave: on a 5xx or a broken call it retries with
// the same Idempotency-Key, so an unknown outcome is looked up, never repeated blindly. Every
// answer is counted for the chaos table (operations, 5xx, and 5xx that were not 503 with
// Retry-After: the contract's only fault answer, so a scenario can require none).

import { expect } from "vitest";
import { sleep } from "../../../src/lib/sleep.ts";
import { createTransfer, type TransferBody, type TransferJson } from "../../support/api.ts";
import { providerOutage, tally } from "../../support/faults.ts";
import { serverErrorCounters } from "./answers.ts";

/** A transfer sent with a sandbox magic key is a provider misbehaviour injected (CONTRACT §4). */
function sandboxKeyCounter(body: TransferBody, status: number): Record<string, number> {
  const magic = /^([a-z-]+)@sandbox\.test$/.exec(body.pix_key);
  return status === 202 && magic ? { [`fault.sandbox_${magic[1]}`]: 1 } : {};
}

export interface CreateOutcome {
  status: number;
  transfer: TransferJson | null;
  replayed: boolean;
  attempts: number;
  serverErrors: number;
  /** 5xx answers other than 503 with Retry-After (a 500 that a retry happened to hide). */
  notRetryableServerErrors: number;
}

const retryDelayMsFirst = 100;
/** Backoff grows by `retryDelayMsFirst` per attempt up to this. */
export const retryDelayMsMax = 2_000;

export async function createWithRetries(
  accountId: string,
  body: TransferBody,
  idempotencyKey: string = crypto.randomUUID(),
  attemptsMax = 8,
): Promise<CreateOutcome> {
  let serverErrors = 0;
  let notRetryableServerErrors = 0;
  for (let attempt = 1; ; attempt++) {
    let status: number;
    let response: Response | null = null;
    try {
      response = await createTransfer(accountId, body, idempotencyKey);
      status = response.status;
      notRetryableServerErrors += serverErrorCounters(response)["http.5xx_not_retryable"];
    } catch {
      status = 0; // the call itself broke (an aborted object): as unknown as a 5xx
    }
    if (status >= 500 || status === 0) serverErrors++;
    const done = status !== 0 && status < 500;
    if (done || attempt >= attemptsMax) {
      await tally({
        operations: attempt,
        "http.5xx": serverErrors,
        "http.5xx_not_retryable": notRetryableServerErrors,
        "http.broken": status === 0 ? 1 : 0,
        ...sandboxKeyCounter(body, status),
      });
      const transfer = response !== null && status === 202 ? await response.json<TransferJson>() : null;
      if (response !== null && transfer === null) await response.body?.cancel();
      const replayed = response?.headers.get("idempotent-replayed") === "true";
      return { status, transfer, replayed, attempts: attempt, serverErrors, notRetryableServerErrors };
    }
    await response?.body?.cancel();
    await sleep(Math.min(retryDelayMsFirst * attempt, retryDelayMsMax));
  }
}

/**
 * `perSender` transfers from each sender at once, with the provider down for `outageMs` from
 * 150 ms in so that some sends meet the outage: the scenarios of a misbehaving provider start here.
 * Every transfer must be accepted (202); each outcome keeps its sender's label.
 */
export async function createDuringOutage<Label>(
  senders: readonly { label: Label; accountId: string; body: TransferBody }[],
  perSender: number,
  outageMs: number,
): Promise<{ sent: { label: Label; created: CreateOutcome }[]; ids: string[] }> {
  const outage = (async () => {
    await sleep(150);
    await providerOutage(outageMs);
  })();
  const sent = await Promise.all(
    senders.flatMap(({ label, accountId, body }) =>
      Array.from({ length: perSender }, async () => ({ label, created: await createWithRetries(accountId, body) })),
    ),
  );
  await outage;
  expect(sent.map((s) => s.created.status)).toEqual(Array(sent.length).fill(202));
  return { sent, ids: sent.map((s) => s.created.transfer?.id ?? "") };
}
