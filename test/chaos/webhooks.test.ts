// Webhooks decide nothing. Forged, stale (a replay outside the tolerance window) and
// re-serialised ones are refused and poke nothing; replayed and lying ones are accepted, make
// the saga ask the provider, and the provider's answer alone moves the transfer.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sleep } from "../../src/lib/sleep.ts";
import { providerFor } from "../../src/provider/select.ts";
import { orderOf } from "../../src/saga-runtime/advance.ts";
import { applyChange } from "../../src/transfers/store.ts";
import { fundedAccount, sandboxPayment } from "../support/api.ts";
import { tally } from "../support/faults.ts";
import { filePool } from "../support/pool-test.ts";
import { storedChange } from "../support/saga.ts";
import { expectInvariants } from "./support/checks.ts";
import { drain, tallyOutcomes } from "./support/drain.ts";
import { openWithoutObject } from "./support/open.ts";
import { resolveReviews } from "./support/operator.ts";
import { scaled } from "./support/scale.ts";
import { deliver, sendWebhook, signedWebhook, type WebhookStatus, type WebhookVariant, webhookPayload } from "./support/webhooks.ts";

const pool = filePool(4);

const amountCents = 900;
const rounds = scaled(1, 10);

/**
 * A transfer sent and accepted, recorded as submitted with its next check a minute away and no
 * object ever run: nothing touches it unless a webhook pokes its saga.
 */
async function quietSubmitted(accountId: string, pixKey: string): Promise<string> {
  const saga = await openWithoutObject(pool, { accountId, amountCents, pixKey, pixKeyType: "email" });
  const sent = await providerFor(env).send(orderOf(saga));
  if (sent.kind !== "accepted") throw new Error(`send answered ${sent.kind}`);
  const applied = await applyChange(
    pool,
    saga.id,
    "funds_reserved",
    storedChange({
      path: ["submitted"],
      endToEndId: sent.endToEndId,
      nextCheckAtMs: Date.now() + 60_000,
      reason: "provider accepted the order",
      evidence: { provider_call: "send", outcome: "accepted", http_status: sent.evidence.httpStatus },
    }),
    { kind: "send", outcome: "accepted", httpStatus: sent.evidence.httpStatus, detail: null, durationMs: 1 },
  );
  if (applied.outcome !== "applied") throw new Error(`submit answered ${applied.outcome}`);
  await sleep(150); // past SANDBOX_CONFIRM_MS: the provider's answer is final
  return saga.id;
}

async function stateOf(id: string): Promise<string> {
  const { rows } = await pool.query<{ state: string }>("SELECT state FROM transfers WHERE id = $1", [id]);
  return rows[0]?.state ?? "missing";
}

/**
 * The webhook route answers before its poke runs (the poke goes on under waitUntil), so what the
 * poke does is waited for, up to `timeoutMs`: the value once `done` holds, or the last one read.
 */
async function settledValue<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 5_000): Promise<T> {
  const giveUpAtMs = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > giveUpAtMs) return value;
    await sleep(50);
  }
}

const statusCallsOf = async (id: string): Promise<number> => (await sandboxPayment(id))?.status_calls ?? 0;

describe("webhooks decide nothing", () => {
  it.each<{ variant: WebhookVariant; key: string; truth: WebhookStatus; status: number; pokes: boolean | null; end: string }>([
    { variant: "forged", key: "silent@sandbox.test", truth: "confirmed", status: 401, pokes: false, end: "submitted" },
    { variant: "stale_replay", key: "silent@sandbox.test", truth: "confirmed", status: 401, pokes: false, end: "submitted" },
    { variant: "reserialised", key: "silent@sandbox.test", truth: "confirmed", status: 401, pokes: false, end: "submitted" },
    { variant: "true", key: "silent@sandbox.test", truth: "confirmed", status: 202, pokes: true, end: "completed" },
    // A paid transfer told "rejected": the provider says confirmed, so it completes.
    { variant: "lying", key: "silent@sandbox.test", truth: "confirmed", status: 202, pokes: true, end: "completed" },
    // A transfer still processing told "confirmed": it stays submitted.
    { variant: "lying", key: "processing@sandbox.test", truth: "processing", status: 202, pokes: true, end: "submitted" },
    // A rejected transfer told "confirmed": the provider says rejected, so it is released. (The
    // sandbox's own, true webhook may have poked it first: whether ours pokes is left open.)
    { variant: "lying", key: "late-reject@sandbox.test", truth: "rejected", status: 202, pokes: null, end: "compensated" },
    { variant: "replayed", key: "silent@sandbox.test", truth: "confirmed", status: 202, pokes: true, end: "completed" },
  ])("$variant about $key: $status, then $end", async ({ variant, key, truth, status, pokes, end }) => {
    const accountId = await fundedAccount(rounds * amountCents);
    const ids: string[] = [];
    for (let round = 0; round < rounds; round++) {
      const id = await quietSubmitted(accountId, key);
      const before = (await sandboxPayment(id))?.status_calls ?? 0;
      expect(await sendWebhook(variant, id, truth)).toBe(status);
      // A refused webhook pokes nothing; an accepted one makes the saga ask, after its answer.
      const after = await settledValue(
        () => statusCallsOf(id),
        (calls) => pokes !== true || calls > before,
      );
      if (pokes === true) expect(after).toBeGreaterThan(before);
      if (pokes === false) expect(after).toBe(before);
      expect(
        await settledValue(
          () => stateOf(id),
          (state) => state === end,
        ),
      ).toBe(end);
      ids.push(id);
    }
    const { rows } = await pool.query<{ n: string }>(
      "SELECT count(*)::text AS n FROM transfer_history WHERE transfer_id::text = ANY($1) AND reason ILIKE '%webhook%'",
      [ids],
    );
    expect(rows[0]?.n, "no transition cites a webhook").toBe("0");
    await expectInvariants(pool, { accountIds: [accountId] }, `after ${variant} webhooks`);
    // Left alone, the quiet ones still finish once the sweeper finds them (a minute on), and the books close.
    await pool.query("UPDATE transfers SET next_check_at = now() - interval '2 minutes' WHERE id::text = ANY($1) AND state = 'submitted'", [
      ids,
    ]);
    expect((await drain(pool, ids, { timeoutMs: 30_000, rescueAfterMs: 0, label: "webhooks" })).stuck).toEqual([]);
    await tallyOutcomes(pool, ids);
    await resolveReviews(pool, ids);
    await expectInvariants(pool, { accountIds: [accountId], overdueMsMax: 0 }, `after ${variant} webhooks drained`);
  });

  it("a duplicate delivery (same webhook-id, same bytes) pokes again and changes nothing more", async () => {
    const accountId = await fundedAccount(amountCents);
    const id = await quietSubmitted(accountId, "silent@sandbox.test");
    const webhook = await signedWebhook(webhookPayload(id, "confirmed"));
    expect(await deliver(webhook)).toBe(202);
    expect(await deliver(webhook)).toBe(202);
    await tally({ "fault.webhook_duplicate": 1, operations: 2 });
    expect(
      await settledValue(
        () => stateOf(id),
        (state) => state === "completed",
      ),
    ).toBe("completed");
    const { rows } = await pool.query<{ n: string }>(
      "SELECT count(*)::text AS n FROM transfer_history WHERE transfer_id = $1 AND to_state = 'completed'",
      [id],
    );
    expect(rows[0]?.n).toBe("1");
    await expectInvariants(pool, { accountIds: [accountId], overdueMsMax: 0 }, "after a duplicate delivery");
  });
});
