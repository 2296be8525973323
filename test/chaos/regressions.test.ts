// Regressions for what the chaos suite found in the saga (docs/reliability.md, "Found").
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sleep } from "../../src/lib/sleep.ts";
import { personCall } from "../support/access.ts";
import { fundedAccount, sandboxPayment } from "../support/api.ts";
import { injectDbFault, silentKey } from "../support/faults.ts";
import { drain } from "./support/drain.ts";
import { openWithoutObject, startThroughObject } from "./support/open.ts";
import { faultedFilePool } from "./support/pool.ts";

const pool = faultedFilePool(3);

describe("found by chaos, fixed in transfer_apply", () => {
  it("an anti-fraud approval given after the deadline follows the normal path", async () => {
    const accountId = await fundedAccount(10_000);
    const started = await startThroughObject({
      accountId,
      amountCents: 2_000,
      pixKey: "10000000108",
      pixKeyType: "cpf",
      deadlineMs: 500,
      rules: { new_key_review_above_cents: 1_000 },
    });
    expect(started.outcome).toBe("created");
    await sleep(800); // the review outlasts the deadline
    const approved = await personCall(`/ops/transfers/${started.id}/resolve`, {
      method: "POST",
      body: JSON.stringify({ outcome: "approve", note: "confirmed by phone" }),
    });
    expect(approved.status).toBe(200);
    await drain(pool, [started.id], { timeoutMs: 10_000, rescueAfterMs: 2_000, label: "approval" });
    const { rows } = await pool.query<{ state: string }>("SELECT state FROM transfers WHERE id = $1", [started.id]);
    expect(rows[0]?.state).toBe("completed");
    expect((await sandboxPayment(started.id))?.made).toBe(true);
  });

  it("records the resend that followed a lost reply, and the grace runs from it", async () => {
    const accountId = await fundedAccount(10_000);
    const saga = await openWithoutObject(pool, { accountId, amountCents: 1_000, ...silentKey });
    await injectDbFault({ kind: "drop_reply", statementPattern: "transfer_apply", count: 1 });
    await env.TRANSFER_SAGA.getByName(saga.id).poke("sweeper"); // send 1; `submitted` commits; reply lost
    await sleep(300);
    const secondSendAtMs = Date.now();
    await env.TRANSFER_SAGA.getByName(saga.id).poke("sweeper"); // send 2: state_mismatch, adopted
    expect((await sandboxPayment(saga.id))?.send_calls).toBe(2);
    const { rows } = await pool.query<{ send_attempts: number; last_sent_ms: string; sends: string }>(
      `SELECT send_attempts, epoch_ms(last_sent_at) AS last_sent_ms,
              (SELECT count(*) FROM provider_calls WHERE transfer_id = $1 AND kind = 'send') AS sends
         FROM transfers WHERE id = $1`,
      [saga.id],
    );
    expect(rows[0]?.send_attempts).toBe(2);
    expect(Number(rows[0]?.sends)).toBe(2);
    expect(Number(rows[0]?.last_sent_ms)).toBeGreaterThanOrEqual(secondSendAtMs - 5);
  });
});
