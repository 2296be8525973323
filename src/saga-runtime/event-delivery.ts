// The saga object's side of event delivery: it remembers when its transfer's next event is due
// (in its own storage, so the alarm can combine it with the saga's next check) and runs the
// pump when it is. With EVENTS_URL unset it does nothing: events stay in the outbox, unsent.
// A lost alarm or a crash loses nothing: the outbox is the record, and the sweeper finds
// undelivered events whose due time passed.

import type { EventsConfig } from "../config/events.ts";
import { configOf } from "../config/isolate.ts";
import type { Queryable } from "../db/queryable.ts";
import { pumpEvents } from "../events/pump.ts";
import type { Fetcher } from "../events/send.ts";
import { logTransfer } from "../lib/log.ts";

const eventsDueKey = "events_due_at_ms";
/** After a database fault during delivery, try again this much later. */
export const eventsFaultRetryMs = 5_000;

export interface DeliveryHost {
  storage: DurableObjectStorage;
  env: Env;
  transferId: string | null;
  withDb: <T>(work: (db: Queryable) => Promise<T>) => Promise<T>;
  /** An event was parked: a person must be told. */
  onParked: (eventId: string) => void;
  fetcher?: Fetcher;
}

export class EventDelivery {
  private readonly host: DeliveryHost;

  constructor(host: DeliveryHost) {
    this.host = host;
  }

  /** A change was just committed: its event is due now. */
  async markDue(nowMs: number): Promise<void> {
    if (eventsConfigOf(this.host.env).delivery === "off") return;
    await this.host.storage.put(eventsDueKey, nowMs);
  }

  async dueAtMs(): Promise<number | null> {
    return (await this.host.storage.get<number>(eventsDueKey)) ?? null;
  }

  /** Delivers what is due (everything pending, with `force`); never throws into the saga. */
  async deliverDue(force: boolean): Promise<void> {
    const config = eventsConfigOf(this.host.env);
    const transferId = this.host.transferId;
    if (config.delivery === "off" || transferId === null) return;
    const dueAtMs = await this.dueAtMs();
    if (!force && (dueAtMs === null || dueAtMs > Date.now())) return;
    try {
      const result = await this.host.withDb((db) =>
        pumpEvents(
          {
            db,
            url: config.url,
            secret: config.secret,
            retryFirstMs: config.retryFirstMs,
            fetcher: this.host.fetcher ?? ((request) => fetch(request)),
            nowMs: () => Date.now(),
          },
          transferId,
        ),
      );
      if (result.nextDueAtMs === null) await this.host.storage.delete(eventsDueKey);
      else await this.host.storage.put(eventsDueKey, result.nextDueAtMs);
      if (result.delivered > 0) logTransfer(transferId, "events_delivered", { delivered: result.delivered });
      if (result.parkedEventId !== null) this.host.onParked(result.parkedEventId);
    } catch (error) {
      await this.host.storage.put(eventsDueKey, Date.now() + eventsFaultRetryMs);
      logTransfer(transferId, "events_fault", { message: error instanceof Error ? error.message : String(error) });
    }
  }
}

/**
 * The parsed configuration's events, which never throws: markDue runs after a commit, where a
 * throw would leave the transfer unarmed. A bad configuration delivers nothing (the object's
 * own guard refuses its RPCs and alarms first; the routes answer /misconfigured).
 */
function eventsConfigOf(env: Env): EventsConfig {
  const config = configOf(env);
  return config.ok ? config.config.events : { delivery: "off" };
}
