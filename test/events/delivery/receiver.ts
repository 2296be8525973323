// The tests' own receiver (scripts/lib/event-receiver.ts, started by global setup) as seen from
// workerd: what it got for a transfer, how it should answer next, and what a delivery carries,
// verified with the official standardwebhooks package as the oracle.
import { env } from "cloudflare:test";
import { Webhook } from "standardwebhooks";
import type { ReceivedEvent, ReceiverMode } from "../../../scripts/lib/event-receiver.ts";

declare global {
  namespace Cloudflare {
    interface Env {
      /** The events receiver's control API (events and chaos projects only). */
      EVENTS_CONTROL_URL?: string;
    }
  }
}

export interface Delivery {
  webhookId: string;
  answered: ReceiverMode;
  body: { type: string; id: string; sequence: number; occurred_at: string; data: { id: string; state: string } };
}

function controlUrl(): string {
  const url = env.EVENTS_CONTROL_URL;
  if (url === undefined || url === "")
    throw new Error("the events receiver needs EVENTS_CONTROL_URL: run this file in the events or chaos project");
  return url;
}

export async function receiverAnswers(transferId: string, mode: ReceiverMode, count: number, hangMs?: number): Promise<void> {
  const response = await fetch(`${controlUrl()}/behaviour`, {
    method: "PUT",
    body: JSON.stringify({ transfer_id: transferId, mode, count, hang_ms: hangMs }),
  });
  await response.body?.cancel();
  if (!response.ok) throw new Error(`receiver control answered ${response.status}`);
}

/** Every delivery the receiver saw for the transfer, in arrival order, each signature verified. */
export async function deliveriesOf(transferId: string): Promise<Delivery[]> {
  const response = await fetch(`${controlUrl()}/received?transfer_id=${transferId}`);
  const received = await response.json<ReceivedEvent[]>();
  const webhook = new Webhook(env.EVENTS_SECRET ?? "");
  return received.map((r) => {
    // Throws on a bad signature or a stale timestamp: the receiver in the README would refuse it.
    webhook.verify(r.body, r.headers);
    return { webhookId: r.headers["webhook-id"] ?? "", answered: r.answered, body: JSON.parse(r.body) as Delivery["body"] };
  });
}

/**
 * The contract's promises over what a receiver saw: acknowledged events are 1..n, each once;
 * nothing is sent before its predecessor was acknowledged; a repeat is a retry of the same id.
 */
export function expectOrderedAtLeastOnce(deliveries: readonly Delivery[]): { acknowledged: number[]; idsBySequence: Map<number, string> } {
  const idsBySequence = new Map<number, string>();
  const acknowledged: number[] = [];
  for (const d of deliveries) {
    if (d.webhookId !== d.body.id) throw new Error(`webhook-id ${d.webhookId} is not the event id ${d.body.id}`);
    const known = idsBySequence.get(d.body.sequence);
    if (known !== undefined && known !== d.body.id) throw new Error(`sequence ${d.body.sequence} came with ids ${known} and ${d.body.id}`);
    idsBySequence.set(d.body.sequence, d.body.id);
    const highest = acknowledged.at(-1) ?? 0;
    if (d.body.sequence > highest + 1) throw new Error(`sequence ${d.body.sequence} sent before ${highest + 1} was acknowledged`);
    if (d.answered === "ok" && d.body.sequence === highest + 1) acknowledged.push(d.body.sequence);
  }
  return { acknowledged, idsBySequence };
}
