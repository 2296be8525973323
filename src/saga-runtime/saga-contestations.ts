// The saga object's side of its transfer's contestations (CONTRACT §2, MED 2.0): opening one
// under the object's lock, an owner's or an operator's step on one, and driving them (checks
// with the provider, deadlines) from the alarm. It remembers when they next need the object, in
// the object's storage, so the alarm can combine that with the saga's next check. The object
// keeps the RPC surface and its queue; this keeps what a contestation needs from it.
import { noticeContestationPastDeadline } from "../alerts/contestation-deadline.ts";
import { businessNowMs } from "../clock/business-time.ts";
import { configuredOrThrow } from "../config/isolate.ts";
import type { Queryable } from "../db/queryable.ts";
import { logTransfer } from "../lib/log.ts";
import { type OpenContestationInput, openContestation } from "../transfers/contestations.ts";
import type { SagaRecord } from "../transfers/saga-record.ts";
import type { RunCause } from "./advance.ts";
import { type ContestationStep, takeContestationStep } from "./contestation-steps.ts";
import { type ContestationPorts, driveContestations } from "./contestations.ts";
import { faultRetryDelayMs } from "./fault-backoff.ts";
import { sagaPorts } from "./ports.ts";
import type { ContestationStepResult, ContestResult } from "./rpc-results.ts";

/** When the transfer's contestations next need the object (a check, a deadline); absent: never. */
const contestationWakeKey = "contestation_wake_at_ms";

/** What the client route passes; the object adds the instant and whether the provider takes contestations. */
export type ContestInput = Omit<OpenContestationInput, "nowMs" | "testClock" | "askProvider">;

export interface ContestationHost {
  env: Env;
  ctx: DurableObjectState;
  withDb: <T>(work: (db: Queryable) => Promise<T>) => Promise<T>;
  /** The database's record, cached by the object from then on. */
  load: (db: Queryable) => Promise<SagaRecord | null>;
  /** The object's cached record. */
  cached: () => Promise<SagaRecord | null>;
  /** A change was committed: its events are due and live streams hear of it. */
  announce: () => Promise<void>;
  /** Sets the object's alarm to the earliest of everything it waits for. */
  arm: (saga: SagaRecord | null) => Promise<void>;
}

export class SagaContestations {
  private readonly host: ContestationHost;

  constructor(host: ContestationHost) {
    this.host = host;
  }

  /**
   * A client contests the completed transfer: opened under the transfer's lock; a provider that
   * takes contestations gets it from the alarm, at once, so a crash after the commit still
   * forwards it.
   */
  open(input: ContestInput): Promise<ContestResult> {
    const { env, ctx } = this.host;
    return this.host.withDb(async (db): Promise<ContestResult> => {
      const askProvider = sagaPorts(env, ctx, db).provider.contestations !== undefined;
      // Business time is added inside the statement (the sandbox on): no round trip more.
      const testClock = configuredOrThrow(env).sandboxEnabled;
      const result = await openContestation(db, { ...input, nowMs: Date.now(), testClock, askProvider });
      if (!("response" in result)) return result;
      if (result.outcome === "created") await this.host.announce();
      // A replay too: its first answer may have been lost with an object that never woke.
      if (askProvider) await ctx.storage.put(contestationWakeKey, Date.now());
      await this.host.arm((await this.host.cached()) ?? (await this.host.load(db)));
      return { outcome: result.outcome, contestationId: result.id, responseBody: JSON.stringify(result.response) };
    });
  }

  /** The owner's cancel, or an operator's record of Efí's hand-over or decision; then drives what follows. */
  async step(contestationId: string, step: ContestationStep): Promise<ContestationStepResult> {
    const { env, ctx } = this.host;
    const result = await this.host.withDb(async (db) => {
      const providerDrives = sagaPorts(env, ctx, db).provider.contestations !== undefined;
      const businessNow = await businessNowMs(db, configuredOrThrow(env));
      return takeContestationStep(db, contestationId, step, { nowMs: Date.now(), businessNowMs: businessNow, providerDrives });
    });
    if (result.outcome === "done") {
      await this.host.announce();
      // A refunding decision reads the transfer's returns now.
      await this.drive("alarm");
      await this.host.arm(await this.host.cached());
    }
    return result;
  }

  /** Drives the transfer's contestations; a fault retries from the alarm, never fails the caller. */
  async drive(cause: RunCause): Promise<void> {
    const { ctx } = this.host;
    const transferId = ctx.id.name;
    if (!transferId) return;
    try {
      const run = await this.host.withDb((db) => driveContestations(this.ports(db), transferId, cause));
      if (run.changed) await this.host.announce();
      if (run.wakeAtMs === null) await ctx.storage.delete(contestationWakeKey);
      else await ctx.storage.put(contestationWakeKey, run.wakeAtMs);
    } catch (error) {
      const delayMs = faultRetryDelayMs(1);
      await ctx.storage.put(contestationWakeKey, Date.now() + delayMs);
      logTransfer(transferId, "contestation_fault", {
        retry_in_ms: delayMs,
        message: error instanceof Error ? error.message : String(error),
      });
    }
  }

  /** When the contestations next need the object; null: nothing to wait for. */
  async wakeAtMs(): Promise<number | null> {
    return (await this.host.ctx.storage.get<number>(contestationWakeKey)) ?? null;
  }

  private ports(db: Queryable): ContestationPorts {
    const { env, ctx } = this.host;
    return {
      ...sagaPorts(env, ctx, db),
      businessNowMs: () => businessNowMs(db, configuredOrThrow(env)),
      loadSaga: () => this.host.load(db),
      alertDeadline: (record) => noticeContestationPastDeadline(env, ctx, record),
    };
  }
}
