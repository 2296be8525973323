// The model-based test's commands: everything a client, a provider, an operator, the platform
// and the infrastructure can do to the system, each checked against the model and followed by
// the invariants. Faults are commands too: the saga must not care when they strike.
import { env, runDurableObjectAlarm } from "cloudflare:test";
import type fc from "fast-check";
import { expect } from "vitest";
import { call, opsHeaders, sandboxPayment } from "../../support/api.ts";
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
import { serverErrorCounters } from "../support/answers.ts";
import { createWithRetries } from "../support/clients.ts";
import { resolveWithRetries } from "../support/operator.ts";
import { expectedWebhookStatus, sendWebhook, type WebhookStatus, type WebhookVariant } from "../support/webhooks.ts";
import { type Model, type ModelTransfer, observe, type Real } from "./world.ts";

type Command = fc.AsyncCommand<Model, Real, false>;

const initialStates: readonly string[] = ["funds_reserved", "submitted", "completed", "compensated", "needs_review"];

function pick(model: Model, index: number): ModelTransfer | null {
  return model.transfers.length === 0 ? null : (model.transfers[index % model.transfers.length] ?? null);
}

export class CreateTransfer implements Command {
  readonly accountIndex: number;
  readonly amountCents: number;
  readonly behaviour: SandboxBehaviour;
  constructor(accountIndex: number, amountCents: number, behaviour: SandboxBehaviour) {
    this.accountIndex = accountIndex;
    this.amountCents = amountCents;
    this.behaviour = behaviour;
  }
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const account = model.accounts[this.accountIndex % model.accounts.length];
    if (!account) throw new Error("no account");
    const body = { amount_cents: this.amountCents, ...sandboxKeys[this.behaviour] };
    const idempotencyKey = crypto.randomUUID();
    const created = await createWithRetries(account.id, body, idempotencyKey);
    expect(created.status, "create answers 202 once the hold was attempted").toBe(202);
    const transfer = created.transfer;
    if (!transfer) throw new Error("202 without a transfer");
    expect(initialStates).toContain(transfer.state);
    model.transfers.push({
      id: transfer.id,
      accountIndex: this.accountIndex % model.accounts.length,
      idempotencyKey,
      body,
      behaviour: this.behaviour,
      seen: transfer.state,
      resolvedByOperator: null,
    });
    await observe(model, real, this.toString());
  }
  toString = () => `create(${this.accountIndex}, ${this.amountCents}, ${this.behaviour})`;
}

/** The same Idempotency-Key again: the same body replays the first answer, another is a 422. */
export class RepeatTransfer implements Command {
  readonly transferIndex: number;
  readonly sameBody: boolean;
  constructor(transferIndex: number, sameBody: boolean) {
    this.transferIndex = transferIndex;
    this.sameBody = sameBody;
  }
  check = (model: Readonly<Model>) => model.transfers.length > 0;
  async run(model: Model, real: Real): Promise<void> {
    const t = pick(model, this.transferIndex);
    const account = t ? model.accounts[t.accountIndex] : undefined;
    if (!t || !account) return;
    const body = this.sameBody ? t.body : { ...t.body, amount_cents: t.body.amount_cents + 1 };
    if (this.sameBody) {
      const replay = await createWithRetries(account.id, body, t.idempotencyKey);
      expect(replay).toMatchObject({ status: 202, replayed: true });
      expect(replay.transfer?.id).toBe(t.id);
    } else {
      // A 5xx (the database unreachable) is retried like any client would; the answer is a 422.
      const reused = await createWithRetries(account.id, body, t.idempotencyKey);
      expect(reused.status, "another body under a used key").toBe(422);
    }
    await observe(model, real, this.toString());
  }
  toString = () => `repeat(${this.transferIndex}, ${this.sameBody ? "same body" : "other body"})`;
}

export class Credit implements Command {
  readonly accountIndex: number;
  readonly amountCents: number;
  readonly reuseKey: boolean;
  constructor(accountIndex: number, amountCents: number, reuseKey: boolean) {
    this.accountIndex = accountIndex;
    this.amountCents = amountCents;
    this.reuseKey = reuseKey;
  }
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const account = model.accounts[this.accountIndex % model.accounts.length];
    if (!account) throw new Error("no account");
    const used = [...account.credits.entries()];
    const reused = this.reuseKey && used.length > 0 ? used[this.amountCents % used.length] : undefined;
    const key = reused?.[0] ?? crypto.randomUUID();
    const amountCents = reused?.[1] ?? this.amountCents;
    for (let attempt = 1; ; attempt++) {
      const response = await call(`/ops/accounts/${account.id}/credits`, {
        method: "POST",
        headers: opsHeaders(),
        body: JSON.stringify({ amount_cents: amountCents, idempotency_key: key }),
      });
      await response.body?.cancel();
      await tally({ operations: 1, ...serverErrorCounters(response) });
      if (response.status >= 500 && attempt < 8) {
        await new Promise((resolve) => setTimeout(resolve, 150 * attempt));
        continue;
      }
      expect(response.status, "credit").toBe(200);
      if (reused === undefined) expect(response.headers.get("idempotent-replayed")).toBeNull();
      break;
    }
    if (reused === undefined) {
      account.credits.set(key, amountCents);
      account.creditedCents += amountCents;
    }
    await observe(model, real, this.toString());
  }
  toString = () => `credit(${this.accountIndex}, ${this.amountCents}${this.reuseKey ? ", reused key" : ""})`;
}

function truthOf(behaviour: SandboxBehaviour): WebhookStatus {
  if (payingBehaviours.includes(behaviour)) return "confirmed";
  return behaviour === "processing" ? "processing" : "rejected";
}

export class Webhook implements Command {
  readonly transferIndex: number;
  readonly variant: WebhookVariant;
  constructor(transferIndex: number, variant: WebhookVariant) {
    this.transferIndex = transferIndex;
    this.variant = variant;
  }
  check = (model: Readonly<Model>) => model.transfers.length > 0;
  async run(model: Model, real: Real): Promise<void> {
    const t = pick(model, this.transferIndex);
    if (!t) return;
    const status = await sendWebhook(this.variant, t.id, truthOf(t.behaviour));
    expect(status, `${this.variant} webhook`).toBe(expectedWebhookStatus[this.variant]);
    await observe(model, real, this.toString());
  }
  toString = () => `webhook(${this.transferIndex}, ${this.variant})`;
}

export class Alarm implements Command {
  readonly transferIndex: number;
  readonly twice: boolean;
  constructor(transferIndex: number, twice: boolean) {
    this.transferIndex = transferIndex;
    this.twice = twice;
  }
  check = (model: Readonly<Model>) => model.transfers.length > 0;
  async run(model: Model, real: Real): Promise<void> {
    const t = pick(model, this.transferIndex);
    if (!t) return;
    if (this.twice) await fireAlarmTwice(t.id);
    else await runDurableObjectAlarm(env.TRANSFER_SAGA.getByName(t.id));
    await tally({ operations: 1 });
    await observe(model, real, this.toString());
  }
  toString = () => `alarm(${this.transferIndex}${this.twice ? ", twice" : ""})`;
}

export class Sweep implements Command {
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const response = await call("/ops/sweep", { method: "POST", headers: opsHeaders() });
    await response.body?.cancel();
    await tally({ operations: 1 });
    expect(response.status).toBe(200);
    await observe(model, real, this.toString());
  }
  toString = () => "sweep";
}

export type CrashKind = "abort_all" | "evict_one";

export class Crash implements Command {
  readonly kind: CrashKind;
  readonly transferIndex: number;
  constructor(kind: CrashKind, transferIndex: number) {
    this.kind = kind;
    this.transferIndex = transferIndex;
  }
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const t = pick(model, this.transferIndex);
    if (this.kind === "abort_all" || !t) await abortObjects();
    else await evictSaga(t.id);
    await observe(model, real, this.toString());
  }
  toString = () => `crash(${this.kind}, ${this.transferIndex})`;
}

export class ProviderOutage implements Command {
  readonly durationMs: number;
  constructor(durationMs: number) {
    this.durationMs = durationMs;
  }
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    await providerOutage(this.durationMs);
    await observe(model, real, this.toString());
  }
  toString = () => `provider_outage(${this.durationMs} ms)`;
}

export type DbFaultKind = "reset" | "drop_reply" | "cut_before" | "latency" | "blackhole" | "kill";

/** Crashes at a step boundary, seen from the database: before the write, or after it committed. */
export class DbFault implements Command {
  readonly kind: DbFaultKind;
  constructor(kind: DbFaultKind) {
    this.kind = kind;
  }
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    switch (this.kind) {
      case "reset":
        await injectDbFault({ kind: "reset", durationMs: 300 });
        break;
      case "drop_reply":
      case "cut_before":
        await injectDbFault({ kind: this.kind, statementPattern: "transfer_apply|transfer_open", count: 1, durationMs: 5_000 });
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
    await observe(model, real, this.toString());
  }
  toString = () => `db_fault(${this.kind})`;
}

/** An operator resolves a transfer: 200 from needs_review (careful: by the provider's record), else 409. */
export class Resolve implements Command {
  readonly transferIndex: number;
  readonly outcomeIfUnsure: "sent" | "not_sent";
  constructor(transferIndex: number, outcomeIfUnsure: "sent" | "not_sent") {
    this.transferIndex = transferIndex;
    this.outcomeIfUnsure = outcomeIfUnsure;
  }
  check = (model: Readonly<Model>) => model.transfers.length > 0;
  async run(model: Model, real: Real): Promise<void> {
    const t = pick(model, this.transferIndex);
    if (!t) return;
    const { rows } = await real.pool.query<{ state: string }>("SELECT state FROM transfers WHERE id = $1", [t.id]);
    const inReview = rows[0]?.state === "needs_review";
    const made = (await sandboxPayment(t.id))?.made === true;
    // A careful operator decides from the provider's record; only outside review is the choice free.
    const outcome = inReview ? (made ? "sent" : "not_sent") : this.outcomeIfUnsure;
    const status = await resolveWithRetries(t.id, outcome);
    if (inReview) {
      // 409 only when a first attempt committed but its answer was lost (a database fault).
      expect([200, 409]).toContain(status);
      if (status === 409) expect(await resolvedByOperator(real, t.id), `409 resolving ${t.id} in review`).toBe(true);
      t.resolvedByOperator = outcome;
    } else {
      expect(status, `resolve outside review (${rows[0]?.state})`).toBe(409);
    }
    await observe(model, real, this.toString());
  }
  toString = () => `resolve(${this.transferIndex}, ${this.outcomeIfUnsure})`;
}

async function resolvedByOperator(real: Real, transferId: string): Promise<boolean> {
  const { rows } = await real.pool.query<{ resolved: boolean }>(
    "SELECT EXISTS (SELECT 1 FROM transfer_history WHERE transfer_id = $1 AND actor = 'operator') AS resolved",
    [transferId],
  );
  return rows[0]?.resolved === true;
}

export class Wait implements Command {
  readonly durationMs: number;
  constructor(durationMs: number) {
    this.durationMs = durationMs;
  }
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, this.durationMs));
    await observe(model, real, this.toString());
  }
  toString = () => `wait(${this.durationMs} ms)`;
}
