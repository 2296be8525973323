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

  /** Opens a stream: null when the transfer has no events (no such transfer) or too many streams are open. */
  async open(lastEventId: number | null): Promise<ReadableStream<Uint8Array> | null> {
    if (this.subscribers.size >= streamsPerTransferMax) return null;
    const read = await this.withDb(async (db) => {
      const latest = await latestEvent(db, this.transferId);
      if (latest === null) return null;
      return { latest, events: lastEventId === null ? [latest] : await eventsAfter(db, this.transferId, lastEventId) };
    });
    if (read === null) return null;
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
    if (this.subscribers.size === 0) return;
    const after = Math.min(...[...this.subscribers].map((s) => s.lastSequence));
    try {
      const events = await this.withDb((db) => eventsAfter(db, this.transferId, after));
      for (const subscriber of [...this.subscribers]) this.send(subscriber, events);
    } catch (error) {
      // The step committed; a stream that misses this push gets it with the next change, or
      // from Last-Event-ID when it reconnects. Never a fault of the saga step.
      logTransfer(this.transferId, "stream_notify_fault", { message: String(error) }, "error");
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
