// TransferSaga: one Durable Object per transfer, a thin shell around the pure saga. It keeps a
// cached copy of its saga record (Postgres is the system of record, and every write there is
// guarded by the expected state), serialises its steps, and uses its alarm for backoff checks,
// deadlines and fault retries. RPC methods return results; they do not throw for outcomes.
import { DurableObject } from "cloudflare:workers";
import { noticeEventParked } from "./alerts/event-parked.ts";
import { noticeNeedsReview } from "./alerts/needs-review.ts";
import { businessOffsetMs } from "./clock/business-time.ts";
import { configOf, configuredOrThrow } from "./config/isolate.ts";
import { httpDb } from "./db/http.ts";
import type { Queryable } from "./db/queryable.ts";
import { dbSettings } from "./db/settings.ts";
import { logTransfer } from "./lib/log.ts";
import { type OperatorOutcome, resolveRefusal, transition } from "./saga/transition.ts";
import { advance, nextWakeAtMs, type RunCause, type SagaPorts, viewOf } from "./saga-runtime/advance.ts";
import type { ContestationStep } from "./saga-runtime/contestation-steps.ts";
import { EventDelivery } from "./saga-runtime/event-delivery.ts";
import { EventStreams, streamLifetimeMsMax, streamSlotLeaseMs } from "./saga-runtime/event-stream.ts";
import { faultRetryDelayMs } from "./saga-runtime/fault-backoff.ts";
import { SerialQueue } from "./saga-runtime/mutex.ts";
import { sagaPorts } from "./saga-runtime/ports.ts";
import { watchReturns } from "./saga-runtime/returns.ts";
import type {
  AdoptResult,
  CancelResult,
  ContestationStepResult,
  ContestResult,
  EnsureArmedResult,
  PokeSource,
  ResolveResult,
  StartResult,
  Unavailable,
} from "./saga-runtime/rpc-results.ts";
import { type ContestInput, SagaContestations } from "./saga-runtime/saga-contestations.ts";
import { readStreamRequest, streamAnswer } from "./saga-runtime/stream-request.ts";
import { accountStreamSlots } from "./saga-runtime/stream-slot.ts";
import { wakeOpenedLater } from "./saga-runtime/wake-opened.ts";
import { followUpsOf } from "./transfers/recurring-follow-ups.ts";
import type { SagaRecord } from "./transfers/saga-record.ts";
import { cancelScheduledTransfer } from "./transfers/scheduled.ts";
import { applyChange, loadSaga, type OpenTransferInput, openTransfer } from "./transfers/store.ts";

const sagaKey = "saga";
const faultsKey = "consecutive_faults";
/**
 * A misconfigured Worker moves no money; its alarms come back this often, so sagas resume on
 * their own once a deploy fixes the configuration (the sweeper would find them too).
 */
export const misconfiguredRetryMs = 60_000;
/** When a faulted step retries: the saga's wake while it is set, whatever its record says. */
const faultRetryAtKey = "fault_retry_at_ms";
export class TransferSaga extends DurableObject<Env> {
  private readonly queue = new SerialQueue();
  /** This transfer's outbound events: the object is their sequencer (CONTRACT §6). */
  private readonly events = new EventDelivery({
    storage: this.ctx.storage,
    env: this.env,
    transferId: this.ctx.id.name ?? null,
    withDb: (work) => this.withDb(work),
    onParked: (eventId) => noticeEventParked(this.env, this.ctx, this.ctx.id.name ?? "", eventId),
  });
  /** Open live streams of this transfer (GET /v1/transfers/:id/events); in memory only. */
  private readonly streams = new EventStreams(this.ctx.id.name ?? "", (work) => this.withDb(work));
  /** This transfer's contestations: opened, stepped and driven under the object's queue. */
  private readonly contestations = new SagaContestations({
    env: this.env,
    ctx: this.ctx,
    withDb: (work) => this.withDb(work),
    load: (db) => this.load(db),
    cached: () => this.get(),
    announce: () => this.announce(),
    arm: (saga) => this.arm(saga),
  });

  /**
   * The live stream, reached only through the client route (which checked the caller owns the
   * transfer; stream-request.ts). 404: no events to stream; 400: a `last-event-id` above the
   * latest sequence; 429: a cap (the `stream-cap` header says which) with Retry-After.
   */
  override async fetch(request: Request): Promise<Response> {
    const opening = readStreamRequest(request);
    if (opening === null) {
      this.log("stream_request_malformed", {});
      return new Response(null, { status: 500 });
    }
    try {
      const slots = accountStreamSlots(this.env.STREAM_SLOTS, opening.accountId, {
        limit: opening.accountStreamsMax,
        leaseMs: streamSlotLeaseMs,
        lifetimeMs: streamLifetimeMsMax,
      });
      return streamAnswer(await this.streams.open(opening.lastEventId, slots));
    } catch (error) {
      this.log("stream_fault", { message: error instanceof Error ? error.message : String(error) });
      return new Response(null, { status: 503 });
    }
  }

  /** Creates the transfer and attempts the hold; returns once the hold was attempted. */
  async start(input: OpenTransferInput): Promise<StartResult> {
    return this.answering("start", () =>
      this.withDb(async (db): Promise<StartResult> => {
        const result = await openTransfer(db, input);
        if (result.outcome === "replayed")
          return { outcome: "replayed", transferId: result.transferId, responseBody: JSON.stringify(result.response) };
        if (result.outcome !== "created") return result;
        await this.ctx.storage.put(sagaKey, result.saga);
        await this.announce();
        // The send happens from the alarm, so a crash after this point still sends.
        await this.arm(result.saga);
        return { outcome: "created", transferId: result.transferId, responseBody: JSON.stringify(result.response) };
      }),
    );
  }

  /**
   * Arms the alarm from the saga record when none is set: a start that committed the transfer
   * and died before arming leaves the object so, and the client's replay (same key, its first
   * answer lost) calls this. Nothing happens to an armed object, or to a record with nothing to
   * wait for (finished, or in review). An armed object answers without joining the queue, so a
   * step in progress (a provider call of seconds) does not hold it.
   */
  async ensureArmed(): Promise<EnsureArmedResult> {
    if ((await this.ctx.storage.getAlarm()) !== null) return { outcome: "already_armed" };
    return this.answering("ensure_armed", async (): Promise<EnsureArmedResult> => {
      if ((await this.ctx.storage.getAlarm()) !== null) return { outcome: "already_armed" };
      const saga = (await this.ctx.storage.get<SagaRecord>(sagaKey)) ?? (await this.withDb((db) => this.load(db)));
      if (!saga) return { outcome: "not_found" };
      if (nextWakeAtMs(saga, Date.now(), this.timings()) === null) return { outcome: "nothing_to_wait_for" };
      await this.arm(saga);
      return { outcome: "armed" };
    });
  }

  /**
   * A transfer opened or changed outside this object (a recurrence's occurrence, opened by the
   * recurrence's request or by the run of the occurrence before it; canceled with its
   * recurrence): the database's record is cached, its events announced and the alarm armed.
   * Repeating it changes nothing.
   */
  async adopt(): Promise<AdoptResult> {
    return this.answering("adopt", () =>
      this.withDb(async (db): Promise<AdoptResult> => {
        const saga = await this.load(db);
        if (!saga) return { outcome: "not_found" };
        await this.announce();
        await this.arm(saga);
        return { outcome: "adopted" };
      }),
    );
  }

  /** Check the provider now (a webhook arrived, or the sweeper found the saga overdue). */
  async poke(source: PokeSource): Promise<{ state: string | null }> {
    if (!this.configured("poke")) return { state: null };
    return this.queue.run(async () => {
      const saga = await this.run({ cause: "poke" });
      // A provider's webhook about a contested transfer makes its contestations ask too.
      if (saga?.state === "completed") {
        await this.contestations.drive("poke");
        await this.arm(saga);
      }
      this.log("poke", { source, state: saga?.state ?? null });
      return { state: saga?.state ?? null };
    });
  }

  override async alarm(): Promise<void> {
    if (!this.configured("alarm")) {
      await this.ctx.storage.setAlarm(Date.now() + misconfiguredRetryMs);
      return;
    }
    await this.queue.run(async () => {
      const saga = await this.run({ cause: "alarm" });
      if (saga?.state === "completed") await this.contestations.drive("alarm");
      await this.events.deliverDue(false);
      if (saga) await this.arm(saga);
    });
  }

  /** A client contests the completed transfer (CONTRACT §2): saga-contestations.ts. */
  async contest(input: ContestInput): Promise<ContestResult> {
    return this.answering("contest", () => this.contestations.open(input));
  }

  /** The owner's cancel, or an operator's record of Efí's hand-over or decision; then drives what follows. */
  async contestationStep(contestationId: string, step: ContestationStep): Promise<ContestationStepResult> {
    return this.answering("contestation_step", () => this.contestations.step(contestationId, step));
  }

  /** The sweeper found a contestation overdue, or past its deadline (business time). */
  async contestationsDue(): Promise<void> {
    if (!this.configured("contestations_due")) return;
    await this.queue.run(async () => {
      await this.contestations.drive("alarm");
      await this.events.deliverDue(false);
      await this.arm(await this.get());
    });
  }

  /** Deliver this transfer's pending events now (the sweeper found one overdue). */
  async deliverEvents(): Promise<void> {
    await this.queue.run(async () => {
      await this.events.deliverDue(true);
      const saga = await this.get();
      if (saga) await this.arm(saga);
    });
  }

  /** The cached saga record (the database is the system of record). */
  async get(): Promise<SagaRecord | null> {
    return (await this.ctx.storage.get<SagaRecord>(sagaKey)) ?? null;
  }

  /** An operator's decision on a needs_review transfer: only from needs_review. `actor` is who decided. */
  async resolve(outcome: OperatorOutcome, note: string, actor: string): Promise<ResolveResult> {
    return this.answering("resolve", () =>
      this.withDb(async (db): Promise<ResolveResult> => {
        // The database's record, not the cached one: an object that died between a commit and
        // its cache write (e.g. into needs_review) would otherwise refuse the operator with 409.
        const saga = await this.load(db);
        if (!saga) return { outcome: "not_found" } as const;
        const refusal = resolveRefusal(viewOf(saga), outcome);
        if (refusal === "not_in_review") return { outcome: "not_in_review", state: saga.state } as const;
        if (refusal !== null) return { outcome: "wrong_outcome", refusal } as const;
        const decided = transition(viewOf(saga), { type: "operator_resolved", outcome, note }, Date.now(), this.timings());
        const write = decided.commands.find((c) => c.type === "persist");
        if (!write) return { outcome: "not_in_review", state: saga.state } as const;
        const applied = await applyChange(
          db,
          saga.id,
          saga.state,
          { ...write.change, sent: false, evidence: { operator_note: note, operator: actor, outcome } },
          null,
        );
        if (applied.outcome === "not_found") return { outcome: "not_found" } as const;
        await this.ctx.storage.put(sagaKey, applied.saga);
        if (applied.outcome === "applied") await this.events.markDue(Date.now());
        await this.streams.notify();
        await this.arm(applied.saga);
        if (applied.outcome === "state_mismatch") return { outcome: "not_in_review", state: applied.saga.state } as const;
        return { outcome: "resolved", state: applied.saga.state } as const;
      }),
    );
  }

  /**
   * Cancels a scheduled transfer. In the object's queue, so it never crosses the alarm's run on
   * the day; the database's row lock and state guard stand behind that.
   */
  async cancel(): Promise<CancelResult> {
    return this.answering("cancel", () =>
      this.withDb(async (db): Promise<CancelResult> => {
        const transferId = this.ctx.id.name ?? "";
        // A recurring occurrence canceled on its own is skipped: its next occurrence opens now.
        const saga = (await this.ctx.storage.get<SagaRecord>(sagaKey)) ?? (await this.load(db));
        const followUps = saga ? followUpsOf(saga, null, this.timings().deadlineMs) : null;
        const result = await cancelScheduledTransfer(db, transferId, followUps);
        if (result.outcome === "not_found") return result;
        await this.ctx.storage.put(sagaKey, result.saga);
        if (result.outcome === "not_scheduled") return { outcome: "not_scheduled", state: result.saga.state };
        await this.announce();
        await this.arm(result.saga);
        wakeOpenedLater(this.env, this.ctx, result.opened);
        return { outcome: "canceled", responseBody: JSON.stringify(result.response) };
      }),
    );
  }

  /**
   * Runs an RPC's work in the queue and turns a fault into a value: an exception thrown across
   * the RPC boundary surfaces as an uncaught rejection, and the caller only needs "try again".
   */
  private answering<T>(rpc: string, work: () => Promise<T>): Promise<T | Unavailable> {
    if (!this.configured(rpc)) return Promise.resolve({ outcome: "unavailable" } as const);
    return this.queue.run(async () => {
      try {
        return await work();
      } catch (error) {
        this.log("rpc_fault", { rpc, message: error instanceof Error ? error.message : String(error) });
        return { outcome: "unavailable" } as const;
      }
    });
  }

  /** Advances the saga; a fault never compensates, it re-arms the alarm with backoff. */
  private async run({ cause }: { cause: RunCause }): Promise<SagaRecord | null> {
    try {
      const cached = await this.ctx.storage.get<SagaRecord>(sagaKey);
      // A poke of a completed transfer asks for its returns: it reads the database's record,
      // since reconciliation may have recorded returns this cache has not seen.
      const afterCompletion = cause === "poke" && cached?.state === "completed";
      const saga = await this.withDb(async (db) => {
        const current = afterCompletion ? await this.load(db) : (cached ?? (await this.load(db)));
        if (!current) return null;
        const ports = sagaPorts(this.env, this.ctx, db);
        if (cause === "poke" && current.state === "completed") return this.watchReturns(ports, db, current);
        const advanced = await advance(ports, current, { cause });
        await this.ctx.storage.put(sagaKey, advanced);
        // A new state was recorded, so was its event (or an adopted one, whose events may wait).
        if (advanced.state !== current.state) {
          await this.announce();
        }
        noticeNeedsReview(this.env, this.ctx, current, advanced);
        return advanced;
      });
      await this.ctx.storage.delete([faultsKey, faultRetryAtKey]);
      if (saga) await this.arm(saga);
      return saga;
    } catch (error) {
      const faults = ((await this.ctx.storage.get<number>(faultsKey)) ?? 0) + 1;
      await this.ctx.storage.put(faultsKey, faults);
      const delayMs = faultRetryDelayMs(faults);
      await this.ctx.storage.put(faultRetryAtKey, Date.now() + delayMs);
      await this.ctx.storage.setAlarm(Date.now() + delayMs);
      this.log("step_fault", { faults, retry_in_ms: delayMs, message: error instanceof Error ? error.message : String(error) });
      return (await this.ctx.storage.get<SagaRecord>(sagaKey)) ?? null;
    }
  }

  /** Asks for a completed transfer's returns and applies the new ones; the record is reloaded after. */
  private async watchReturns(ports: SagaPorts, db: Queryable, saga: SagaRecord): Promise<SagaRecord> {
    const watch = await watchReturns(ports, saga);
    if (!watch.checked) return saga;
    this.log("returns_checked", { answer: watch.answer, returns: watch.applied });
    if (!watch.applied.some((a) => a.result === "applied")) return saga;
    // Each applied return recorded its transfer.returned event: deliver it.
    await this.events.markDue(Date.now());
    return (await this.load(db)) ?? saga;
  }

  /** The database's record, cached from now on; null for a name that is no transfer id. */
  private async load(db: Queryable): Promise<SagaRecord | null> {
    const transferId = this.ctx.id.name;
    if (!transferId || !/^[0-9a-f-]{36}$/.test(transferId)) return null;
    const loaded = await loadSaga(db, transferId);
    if (loaded) await this.ctx.storage.put(sagaKey, loaded);
    return loaded;
  }

  /** The saga's next check, the next event delivery or the contestations' next need, whichever comes first. */
  private async arm(saga: SagaRecord | null): Promise<void> {
    const faultRetryAtMs = await this.ctx.storage.get<number>(faultRetryAtKey);
    const sagaWakeAtMs =
      faultRetryAtMs ?? (saga === null ? null : nextWakeAtMs(saga, Date.now(), this.timings(), await this.businessOffsetMs(saga)));
    const wakes = [sagaWakeAtMs, await this.events.dueAtMs(), await this.contestations.wakeAtMs()];
    const due = wakes.filter((wakeAtMs): wakeAtMs is number => wakeAtMs !== null);
    if (due.length === 0) await this.ctx.storage.deleteAlarm();
    else await this.ctx.storage.setAlarm(Math.min(...due));
  }

  /** The test clock's offset, for a scheduled run's business instant only: no read for anything else. */
  private businessOffsetMs(saga: SagaRecord): Promise<number> {
    if (saga.state !== "scheduled") return Promise.resolve(0);
    return this.withDb((db) => businessOffsetMs(db, configuredOrThrow(this.env)));
  }

  /** A change was committed: its event is due now, and live streams hear of it. */
  private async announce(): Promise<void> {
    await this.events.markDue(Date.now());
    await this.streams.notify();
  }

  private timings() {
    return configuredOrThrow(this.env).sagaTimings;
  }

  /**
   * False when the configuration has problems (CONTRACT §1, fails closed): then no RPC, alarm or
   * poke touches the provider or the ledger. The Worker's routes refuse first; this is the
   * objects' own guard, for alarms and the sweeper that no request precedes.
   */
  private configured(entry: string): boolean {
    if (configOf(this.env).ok) return true;
    this.log("refused_misconfigured", { entry });
    return false;
  }

  /** Every step is single statements: Neon's HTTP path, one round trip each, nothing to keep open. */
  private withDb<T>(work: (db: Queryable) => Promise<T>): Promise<T> {
    return work(httpDb({ ...dbSettings(this.env), applicationName: "pix-saga" }));
  }

  private log(event: string, fields: Record<string, unknown>): void {
    logTransfer(this.ctx.id.name ?? null, event, fields);
  }
}
