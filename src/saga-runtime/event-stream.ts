// The live stream of one transfer (GET /v1/transfers/:id/events), served by its saga object:
// the object knows the moment its transfer changes, so it pushes each change to its open
// streams right after the commit, with no polling. A fresh stream gets the current resource; a
// resume (Last-Event-ID = the sequence last seen) gets every event after it, so nothing is
// missed. A stream ends after a terminal state, or at its lifetime bound (the client
// reconnects with Last-Event-ID). Server-sent events: `id` is the event's sequence.
import type { Queryable } from "../db/queryable.ts";
import { eventsAfter, latestEvent, type StreamedEvent } from "../events/stream-reads.ts";
import { logTransfer } from "../lib/log.ts";

/** A stream's longest life: bounds what one idle client holds open; EventSource reconnects. */
export const streamLifetimeMsMax = 5 * 60 * 1000;
/** A comment line this often keeps proxies from closing a quiet stream. */
export const streamKeepaliveMs = 25_000;
/** Open streams per transfer: a client reconnecting in a loop cannot pile them up. */
export const streamsPerTransferMax = 20;
/** A push that failed on the database is tried once more this much later. */
export const notifyRetryMs = 250;
/** Asks EventSource clients to reconnect after this long when a stream ends early. */
const reconnectHintMs = 1_000;
const terminalStates: ReadonlySet<unknown> = new Set(["completed", "compensated", "canceled"]);

interface Subscriber {
  writer: WritableStreamDefaultWriter<Uint8Array>;
  lastSequence: number;
  lifetime: ReturnType<typeof setTimeout> | null;
  keepalive: ReturnType<typeof setInterval> | null;
}

const encoder = new TextEncoder();

function message(event: StreamedEvent): Uint8Array {
  return encoder.encode(`id: ${event.sequence}\nevent: transfer.updated\ndata: ${JSON.stringify(event.data)}\n\n`);
}

export class EventStreams {
  private readonly subscribers = new Set<Subscriber>();
  private readonly transferId: string;
  private readonly withDb: <T>(work: (db: Queryable) => Promise<T>) => Promise<T>;

  constructor(transferId: string, withDb: <T>(work: (db: Queryable) => Promise<T>) => Promise<T>) {
    this.transferId = transferId;
    this.withDb = withDb;
  }

  /**
   * Opens a stream. `no_events`: no such transfer, or too many streams open. `ahead`: the
   * Last-Event-ID is above the transfer's latest sequence, an id this stream never sent; served,
   * it would hide every change up to that number.
   */
  async open(lastEventId: number | null): Promise<ReadableStream<Uint8Array> | "no_events" | "ahead"> {
    if (this.subscribers.size >= streamsPerTransferMax) return "no_events";
    const read = await this.withDb(async (db) => {
      const latest = await latestEvent(db, this.transferId);
      if (latest === null) return "no_events" as const;
      if (lastEventId !== null && lastEventId > latest.sequence) return "ahead" as const;
      return { latest, events: lastEventId === null ? [latest] : await eventsAfter(db, this.transferId, lastEventId) };
    });
    if (typeof read === "string") return read;
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    const subscriber: Subscriber = { writer: writable.getWriter(), lastSequence: lastEventId ?? 0, lifetime: null, keepalive: null };
    this.subscribers.add(subscriber);
    this.write(subscriber, encoder.encode(`retry: ${reconnectHintMs}\n\n`));
    this.send(subscriber, read.events);
    // A resume after the terminal event has nothing left to wait for.
    if (terminalStates.has(read.latest.data.state) && subscriber.lastSequence >= read.latest.sequence) this.close(subscriber);
    if (this.subscribers.has(subscriber)) {
      subscriber.lifetime = setTimeout(() => this.close(subscriber), streamLifetimeMsMax);
      subscriber.keepalive = setInterval(() => this.write(subscriber, encoder.encode(": keepalive\n\n")), streamKeepaliveMs);
    }
    // A client that goes away: the write side errors, and the subscriber is dropped.
    subscriber.writer.closed.catch(() => this.close(subscriber));
    return readable;
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
      if (terminalStates.has(event.data.state)) {
        this.close(subscriber);
        return;
      }
    }
  }

  private write(subscriber: Subscriber, bytes: Uint8Array): void {
    subscriber.writer.write(bytes).catch(() => this.close(subscriber));
  }

  private close(subscriber: Subscriber): void {
    if (!this.subscribers.delete(subscriber)) return;
    if (subscriber.lifetime !== null) clearTimeout(subscriber.lifetime);
    if (subscriber.keepalive !== null) clearInterval(subscriber.keepalive);
    subscriber.writer.close().catch(() => undefined);
  }
}
