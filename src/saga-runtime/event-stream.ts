// The live stream of one transfer (GET /v1/transfers/:id/events), served by its saga object:
// the object knows the moment its transfer changes, so it pushes each change to its open
// streams right after the commit, with no polling. A fresh stream gets the current resource; a
// resume (Last-Event-ID = the sequence last seen) gets every event after it, so nothing is
// missed. A stream ends after a terminal state, or at its lifetime bound (the client
// reconnects with Last-Event-ID). Server-sent events: `id` is the event's sequence.
// Two caps: streamsPerTransferMax here, and the account's (stream-slots-object.ts), a slot
// leased for each stream, renewed with its keep-alive and given back when it ends.
import type { Queryable } from "../db/queryable.ts";
import { eventsAfter, latestEvent, type StreamedEvent } from "../events/stream-reads.ts";
import { logTransfer } from "../lib/log.ts";
import type { AccountStreamSlots } from "./stream-slot.ts";

/** A stream's longest life: bounds what one idle client holds open; EventSource reconnects. */
export const streamLifetimeMsMax = 5 * 60 * 1000;
/** A comment line this often keeps proxies from closing a quiet stream; it renews the stream's slot too. */
export const streamKeepaliveMs = 25_000;
/**
 * An account's slot outlives its stream's last renewal by this: three keep-alives, so two
 * renewals may fail in a row before a live stream loses its slot, and a holder that died frees
 * its slots this long after it stopped renewing.
 */
export const streamSlotLeaseMs = 3 * streamKeepaliveMs;
/** Open streams per transfer: a client reconnecting in a loop cannot pile them up. */
export const streamsPerTransferMax = 20;
/** A push that failed on the database is tried once more this much later. */
export const notifyRetryMs = 250;
/** Asks EventSource clients to reconnect after this long when a stream ends early. */
const reconnectHintMs = 1_000;
const terminalStates: ReadonlySet<unknown> = new Set(["completed", "compensated", "canceled"]);

/** Which cap refused a stream. */
export type StreamCap = "account" | "transfer";

export type StreamOpened =
  | { outcome: "opened"; stream: ReadableStream<Uint8Array> }
  /** No such transfer. */
  | { outcome: "no_events" }
  /** The Last-Event-ID is above the transfer's latest sequence, an id this stream never sent. */
  | { outcome: "ahead" }
  /** `retryAfterMs`: by then the oldest stream under that cap has reached its lifetime bound. */
  | { outcome: "full"; cap: StreamCap; retryAfterMs: number };

interface Subscriber {
  writer: WritableStreamDefaultWriter<Uint8Array>;
  lastSequence: number;
  openedAtMs: number;
  slots: AccountStreamSlots;
  leaseId: string;
  /** When the last renewal that succeeded was asked for: the lease lasts at least until this + streamSlotLeaseMs. */
  renewedAtMs: number;
  lifetime: ReturnType<typeof setTimeout> | null;
  keepalive: ReturnType<typeof setInterval> | null;
}

const encoder = new TextEncoder();
const keepaliveBytes = encoder.encode(": keepalive\n\n");

/** A contestation's change is named as such; every other event shows the transfer. */
function message(event: StreamedEvent): Uint8Array {
  const name = event.type === "contestation.updated" ? event.type : "transfer.updated";
  return encoder.encode(`id: ${event.sequence}\nevent: ${name}\ndata: ${JSON.stringify(event.data)}\n\n`);
}

/** After this event the transfer changes no more: a contestation's `canceled` is not the transfer's. */
const isTerminal = (event: StreamedEvent): boolean => event.type !== "contestation.updated" && terminalStates.has(event.data.state);

export class EventStreams {
  private readonly subscribers = new Set<Subscriber>();
  /** Opens past the cap check and not yet subscribed: they count against the cap already. */
  private opening = 0;
  private readonly transferId: string;
  private readonly withDb: <T>(work: (db: Queryable) => Promise<T>) => Promise<T>;

  constructor(transferId: string, withDb: <T>(work: (db: Queryable) => Promise<T>) => Promise<T>) {
    this.transferId = transferId;
    this.withDb = withDb;
  }

  /**
   * Opens a stream. The transfer's slot is counted before the first await (`opening`), so
   * concurrent opens cannot all pass the check; then the account's slot is taken, then the
   * transfer is read. Whatever ends the attempt early gives both back.
   */
  async open(lastEventId: number | null, slots: AccountStreamSlots): Promise<StreamOpened> {
    const startedAtMs = Date.now();
    if (this.subscribers.size + this.opening >= streamsPerTransferMax)
      return { outcome: "full", cap: "transfer", retryAfterMs: this.transferRetryAfterMs(startedAtMs) };
    this.opening += 1;
    let unusedLeaseId: string | null = null;
    try {
      const slot = await slots.acquire();
      if (slot.outcome === "full") return { outcome: "full", cap: "account", retryAfterMs: slot.retryAfterMs };
      unusedLeaseId = slot.leaseId;
      const read = await this.withDb(async (db) => {
        const latest = await latestEvent(db, this.transferId);
        if (latest === null) return "no_events" as const;
        if (lastEventId !== null && lastEventId > latest.sequence) return "ahead" as const;
        return { latest, events: lastEventId === null ? [latest] : await eventsAfter(db, this.transferId, lastEventId) };
      });
      if (typeof read === "string") return { outcome: read };
      const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
      const subscriber: Subscriber = {
        writer: writable.getWriter(),
        lastSequence: lastEventId ?? 0,
        openedAtMs: Date.now(),
        slots,
        leaseId: slot.leaseId,
        renewedAtMs: startedAtMs,
        lifetime: null,
        keepalive: null,
      };
      // From here the subscriber holds the lease: close() gives it back.
      unusedLeaseId = null;
      this.subscribers.add(subscriber);
      this.write(subscriber, encoder.encode(`retry: ${reconnectHintMs}\n\n`));
      this.send(subscriber, read.events);
      // A resume after the terminal event has nothing left to wait for.
      if (isTerminal(read.latest) && subscriber.lastSequence >= read.latest.sequence) this.close(subscriber);
      if (this.subscribers.has(subscriber)) {
        subscriber.lifetime = setTimeout(() => this.close(subscriber), streamLifetimeMsMax);
        subscriber.keepalive = setInterval(() => this.keepAlive(subscriber), streamKeepaliveMs);
      }
      // A client that goes away: the write side errors, and the subscriber is dropped.
      subscriber.writer.closed.catch(() => this.close(subscriber));
      return { outcome: "opened", stream: readable };
    } finally {
      this.opening -= 1;
      if (unusedLeaseId !== null) giveBack(slots, unusedLeaseId);
    }
  }

  /** The transfer changed: push what each open stream has not seen yet. Costs nothing without streams. */
  async notify(): Promise<void> {
    if (await this.push()) return;
    // The step committed; a push lost to a database fault is tried once more shortly, so a
    // quiet transfer's change still reaches the app within the contract's second. Never a fault
    // of the saga step; past that, the next change or a reconnect (Last-Event-ID) brings it.
    setTimeout(() => void this.push(), notifyRetryMs);
  }

  /** Pushes what each stream has not seen; false when the database failed. */
  private async push(): Promise<boolean> {
    if (this.subscribers.size === 0) return true;
    const after = Math.min(...[...this.subscribers].map((s) => s.lastSequence));
    try {
      const events = await this.withDb((db) => eventsAfter(db, this.transferId, after));
      for (const subscriber of [...this.subscribers]) this.send(subscriber, events);
      return true;
    } catch (error) {
      // The step committed; a stream that misses this push gets it with the retry, the next
      // change, or from Last-Event-ID when it reconnects. Never a fault of the saga step.
      logTransfer(this.transferId, "stream_notify_fault", { message: String(error) }, "error");
      return false;
    }
  }

  private send(subscriber: Subscriber, events: readonly StreamedEvent[]): void {
    for (const event of events) {
      if (event.sequence <= subscriber.lastSequence) continue;
      subscriber.lastSequence = event.sequence;
      this.write(subscriber, message(event));
      if (isTerminal(event)) {
        this.close(subscriber);
        return;
      }
    }
  }

  private write(subscriber: Subscriber, bytes: Uint8Array): void {
    subscriber.writer.write(bytes).catch(() => this.close(subscriber));
  }

  /** Keeps the connection and the account's slot alive; a stream whose slot is gone ends. */
  private keepAlive(subscriber: Subscriber): void {
    this.write(subscriber, keepaliveBytes);
    const askedAtMs = Date.now();
    subscriber.slots.renew(subscriber.leaseId).then(
      (held) => {
        if (held) subscriber.renewedAtMs = askedAtMs;
        else this.closeWithoutSlot(subscriber, "stream_slot_lost");
      },
      () => {
        // The slots' object did not answer: the lease may lapse before the next try, and a stream
        // past its lease would be one the account's count no longer sees.
        if (Date.now() + streamKeepaliveMs >= subscriber.renewedAtMs + streamSlotLeaseMs)
          this.closeWithoutSlot(subscriber, "stream_slot_unrenewed");
      },
    );
  }

  private closeWithoutSlot(subscriber: Subscriber, event: string): void {
    if (!this.subscribers.has(subscriber)) return;
    logTransfer(this.transferId, event, { lease_id: subscriber.leaseId }, "warn");
    this.close(subscriber);
  }

  /** Until the oldest open stream reaches its lifetime bound; a stream still opening counts as new. */
  private transferRetryAfterMs(nowMs: number): number {
    const oldestOpenedAtMs = Math.min(nowMs, ...[...this.subscribers].map((s) => s.openedAtMs));
    return Math.max(0, oldestOpenedAtMs + streamLifetimeMsMax - nowMs);
  }

  private close(subscriber: Subscriber): void {
    if (!this.subscribers.delete(subscriber)) return;
    if (subscriber.lifetime !== null) clearTimeout(subscriber.lifetime);
    if (subscriber.keepalive !== null) clearInterval(subscriber.keepalive);
    subscriber.writer.close().catch(() => undefined);
    giveBack(subscriber.slots, subscriber.leaseId);
  }
}

/** A release that fails leaves the lease to lapse: later, never stuck. */
function giveBack(slots: AccountStreamSlots, leaseId: string): void {
  slots.release(leaseId).catch(() => undefined);
}
