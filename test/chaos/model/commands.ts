// The model-based test's commands: everything a client, a provider, an operator, the platform
// and the infrastructure can do to the system, each checked against the model and followed by
// the invariants. Faults are commands too: the saga must not care when they strike.
import { env, runDurableObjectAlarm } from "cloudflare:test";
import type fc from "fast-check";
import { expect } from "vitest";
import { sleep } from "../../../src/lib/sleep.ts";
import { opsCall, sandboxPayment } from "../../support/api.ts";
import {
  abortObjects,
  evictSaga,
  fireAlarmTwice,
  injectDbFault,
  killSagaBackends,
  payingBehaviours,
  providerOutage,
  type SandboxBehaviour,
  sandboxKeys,
  tally,
} from "../../support/faults.ts";
import { saoPauloDayFromToday } from "../../support/schedule.ts";
import { serverErrorCounters } from "../support/answers.ts";
import { createWithRetries } from "../support/clients.ts";
import { resolveWithRetries } from "../support/operator.ts";
import { createRecurringWithRetries } from "../support/recurring.ts";
import { expectedWebhookStatus, sendWebhook, type WebhookStatus, type WebhookVariant } from "../support/webhooks.ts";
import { type Model, type ModelTransfer, observe, type Real, settleRecurrences } from "./world.ts";

type Command = fc.AsyncCommand<Model, Real, false>;

const initialStates: readonly string[] = ["funds_reserved", "submitted", "completed", "compensated", "needs_review"];

function pick(model: Model, index: number): ModelTransfer | null {
  return model.transfers.length === 0 ? null : (model.transfers[index % model.transfers.length] ?? null);
}

/** Every command acts on the system, then the model and the invariants are checked: `step` does the checking once. */
function step(name: string, act: (model: Model, real: Real) => Promise<void>, needsTransfer = false): Command {
  return {
    check: (model) => !needsTransfer || model.transfers.length > 0,
    run: async (model, real) => {
      await act(model, real);
      await observe(model, real, name);
    },
    toString: () => name,
  };
}

function truthOf(behaviour: SandboxBehaviour): WebhookStatus {
  if (payingBehaviours.includes(behaviour)) return "confirmed";
  return behaviour === "processing" ? "processing" : "rejected";
}

async function resolvedByOperator(real: Real, transferId: string): Promise<boolean> {
  const { rows } = await real.pool.query<{ resolved: boolean }>(
    "SELECT EXISTS (SELECT 1 FROM transfer_history WHERE transfer_id = $1 AND actor = 'operator') AS resolved",
    [transferId],
  );
  return rows[0]?.resolved === true;
}

export type CrashKind = "abort_all" | "evict_one";
export type DbFaultKind = "reset" | "drop_reply" | "cut_before" | "latency" | "blackhole" | "kill";

/** The commands, by what they do; each takes what fast-check generated for it. */
export const commands = {
  create(accountIndex: number, amountCents: number, behaviour: SandboxBehaviour): Command {
    return step(`create(${accountIndex}, ${amountCents}, ${behaviour})`, async (model) => {
      const account = model.accounts[accountIndex % model.accounts.length];
      if (!account) throw new Error("no account");
      const body = { amount_cents: amountCents, ...sandboxKeys[behaviour] };
      const idempotencyKey = crypto.randomUUID();
      const created = await createWithRetries(account.id, body, idempotencyKey);
      expect(created.status, "create answers 202 once the hold was attempted").toBe(202);
      const transfer = created.transfer;
      if (!transfer) throw new Error("202 without a transfer");
      expect(initialStates).toContain(transfer.state);
      model.transfers.push({
        id: transfer.id,
        accountIndex: accountIndex % model.accounts.length,
        idempotencyKey,
        body,
        behaviour,
        seen: transfer.state,
        resolvedByOperator: null,
      });
    });
  },

  /** The same Idempotency-Key again: the same body replays the first answer, another is a 422. */
  repeat(transferIndex: number, sameBody: boolean): Command {
    const name = `repeat(${transferIndex}, ${sameBody ? "same body" : "other body"})`;
    return step(
      name,
      async (model) => {
        const t = pick(model, transferIndex);
        const account = t ? model.accounts[t.accountIndex] : undefined;
        if (!t || !account) throw new Error(`${name}: no transfer to repeat`);
        const body = sameBody ? t.body : { ...t.body, amount_cents: t.body.amount_cents + 1 };
        if (t.recurring) {
          // An occurrence's key is its recurrence's: a client sending it is never handed the occurrence.
          const reused = await createWithRetries(account.id, body, t.idempotencyKey);
          expect(reused.status, "a client request under an occurrence's key").toBe(422);
        } else if (sameBody) {
          const replay = await createWithRetries(account.id, body, t.idempotencyKey);
          expect(replay).toMatchObject({ status: 202, replayed: true });
          expect(replay.transfer?.id).toBe(t.id);
        } else {
          // A 5xx (the database unreachable) is retried like any client would; the answer is a 422.
          const reused = await createWithRetries(account.id, body, t.idempotencyKey);
          expect(reused.status, "another body under a used key").toBe(422);
        }
      },
      true,
    );
  },

  credit(accountIndex: number, amountCents: number, reuseKey: boolean): Command {
    return step(`credit(${accountIndex}, ${amountCents}${reuseKey ? ", reused key" : ""})`, async (model) => {
      const account = model.accounts[accountIndex % model.accounts.length];
      if (!account) throw new Error("no account");
      const used = [...account.credits.entries()];
      const reused = reuseKey && used.length > 0 ? used[amountCents % used.length] : undefined;
      const key = reused?.[0] ?? crypto.randomUUID();
      const creditedCents = reused?.[1] ?? amountCents;
      for (let attempt = 1; ; attempt++) {
        const response = await opsCall(`/ops/accounts/${account.id}/credits`, {
          method: "POST",
          body: JSON.stringify({ amount_cents: creditedCents, idempotency_key: key }),
        });
        await response.body?.cancel();
        await tally({ operations: 1, ...serverErrorCounters(response) });
        if (response.status >= 500 && attempt < 8) {
          await sleep(150 * attempt);
          continue;
        }
        expect(response.status, "credit").toBe(200);
        if (reused === undefined) expect(response.headers.get("idempotent-replayed")).toBeNull();
        break;
      }
      if (reused === undefined) {
        account.credits.set(key, creditedCents);
        account.creditedCents += creditedCents;
      }
    });
  },

  webhook(transferIndex: number, variant: WebhookVariant): Command {
    const name = `webhook(${transferIndex}, ${variant})`;
    return step(
      name,
      async (model) => {
        const t = pick(model, transferIndex);
        if (!t) throw new Error(`${name}: no transfer`);
        const status = await sendWebhook(variant, t.id, truthOf(t.behaviour));
        expect(status, `${variant} webhook`).toBe(expectedWebhookStatus[variant]);
      },
      true,
    );
  },

  alarm(transferIndex: number, twice: boolean): Command {
    const name = `alarm(${transferIndex}${twice ? ", twice" : ""})`;
    return step(
      name,
      async (model) => {
        const t = pick(model, transferIndex);
        if (!t) throw new Error(`${name}: no transfer`);
        if (twice) await fireAlarmTwice(t.id);
        else await runDurableObjectAlarm(env.TRANSFER_SAGA.getByName(t.id));
        await tally({ operations: 1 });
      },
      true,
    );
  },

  sweep(): Command {
    return step("sweep", async () => {
      const response = await opsCall("/ops/sweep", { method: "POST" });
      await response.body?.cancel();
      await tally({ operations: 1 });
      expect(response.status).toBe(200);
    });
  },

  crash(kind: CrashKind, transferIndex: number): Command {
    return step(`crash(${kind}, ${transferIndex})`, async (model) => {
      const t = pick(model, transferIndex);
      if (kind === "abort_all" || !t) await abortObjects();
      else await evictSaga(t.id);
    });
  },

  providerOutage(durationMs: number): Command {
    return step(`provider_outage(${durationMs} ms)`, () => providerOutage(durationMs));
  },

  /** Crashes at a step boundary, seen from the database: before the write, or after it committed. */
  dbFault(kind: DbFaultKind): Command {
    return step(`db_fault(${kind})`, async (_model, real) => {
      switch (kind) {
        case "reset":
          await injectDbFault({ kind: "reset", durationMs: 300 });
          break;
        case "drop_reply":
        case "cut_before":
          await injectDbFault({ kind, statementPattern: "transfer_apply|transfer_open", count: 1, durationMs: 5_000 });
          break;
        case "latency":
          await injectDbFault({ kind: "latency", durationMs: 1_000, latencyMs: 80 });
          break;
        case "blackhole":
          await injectDbFault({ kind: "blackhole", durationMs: 500 });
          break;
        case "kill":
          await killSagaBackends(real.pool);
          break;
      }
    });
  },

  /** An operator resolves a transfer: 200 from needs_review (careful: by the provider's record), else 409. */
  resolve(transferIndex: number, outcomeIfUnsure: "sent" | "not_sent"): Command {
    const name = `resolve(${transferIndex}, ${outcomeIfUnsure})`;
    return step(
      name,
      async (model, real) => {
        const t = pick(model, transferIndex);
        if (!t) throw new Error(`${name}: no transfer`);
        const { rows } = await real.pool.query<{ state: string }>("SELECT state FROM transfers WHERE id = $1", [t.id]);
        const inReview = rows[0]?.state === "needs_review";
        const made = (await sandboxPayment(t.id))?.made === true;
        // A careful operator decides from the provider's record; only outside review is the choice free.
        const outcome = inReview ? (made ? "sent" : "not_sent") : outcomeIfUnsure;
        const status = await resolveWithRetries(t.id, outcome);
        if (inReview) {
          // 409 only when a first attempt committed but its answer was lost (a database fault).
          expect([200, 409]).toContain(status);
          if (status === 409) expect(await resolvedByOperator(real, t.id), `409 resolving ${t.id} in review`).toBe(true);
          t.resolvedByOperator = outcome;
        } else {
          expect(status, `resolve outside review (${rows[0]?.state})`).toBe(409);
        }
      },
      true,
    );
  },

  /**
   * A client creates a recurring transfer and its first occurrence's day comes at once: the run
   * is raced from every side under the faults, and so is the evening retry it opens when the
   * account is short. I15 (each occurrence runs at most once on its date, plus its one retry)
   * is checked after this command like every invariant.
   */
  recur(accountIndex: number, amountCents: number, behaviour: SandboxBehaviour, frequency: "weekly" | "monthly"): Command {
    return step(`recur(${accountIndex}, ${amountCents}, ${behaviour}, ${frequency})`, async (model, real) => {
      const index = accountIndex % model.accounts.length;
      const account = model.accounts[index];
      if (!account) throw new Error("no account");
      const body = { amount_cents: amountCents, ...sandboxKeys[behaviour] };
      const created = await createRecurringWithRetries(account.id, { ...body, first_date: saoPauloDayFromToday(1), frequency, count: 3 });
      expect(created.status, "create a recurring transfer").toBe(201);
      if (created.id === null || created.firstTransferId === null || created.firstTransferKey === null)
        throw new Error("201 without a recurrence");
      model.recurrences.push({ id: created.id, accountIndex: index, firstTransferId: created.firstTransferId });
      model.transfers.push({
        id: created.firstTransferId,
        accountIndex: index,
        idempotencyKey: created.firstTransferKey,
        body,
        behaviour,
        seen: "scheduled",
        resolvedByOperator: null,
        recurring: true,
      });
      await settleRecurrences(model, real, 3_000);
    });
  },

  wait(durationMs: number): Command {
    return step(`wait(${durationMs} ms)`, () => sleep(durationMs));
  },
};
