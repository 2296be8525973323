// One delivery attempt of one event to the fintech's backend: the body CONTRACT §6 fixes,
// signed per Standard Webhooks with EVENTS_SECRET, `webhook-id` = the event id on every attempt.
// Never throws: a refused, failed or timed-out attempt is a value with what went wrong.
import { readCappedText } from "../lib/capped-body.ts";
import { signedWebhookHeaders } from "../lib/webhook-signature.ts";
import type { PendingEvent } from "./store.ts";

/** How long the receiver has to answer one attempt; a hung receiver costs at most this. */
export const eventAttemptTimeoutMs = 5_000;
/** Enough of an error answer to diagnose from the console, bounded. */
const errorTextLengthMax = 200;

export type Fetcher = (request: Request) => Promise<Response>;

export interface AttemptOutcome {
  delivered: boolean;
  httpStatus: number | null;
  durationMs: number;
  error: string | null;
}

export function eventBody(event: PendingEvent): string {
  return JSON.stringify({ type: event.type, id: event.id, sequence: event.sequence, occurred_at: event.occurredAt, data: event.data });
}

export async function sendEvent(
  event: PendingEvent,
  target: { url: string; secret: string; fetcher: Fetcher; nowMs: () => number; timeoutMs?: number },
): Promise<AttemptOutcome> {
  const startedAtMs = target.nowMs();
  const body = eventBody(event);
  const timestampSeconds = Math.floor(startedAtMs / 1000);
  try {
    const headers = await signedWebhookHeaders({ secret: target.secret, id: event.id, timestampSeconds, body });
    const response = await target.fetcher(
      new Request(target.url, {
        method: "POST",
        headers,
        body,
        signal: AbortSignal.timeout(target.timeoutMs ?? eventAttemptTimeoutMs),
        // A redirect is not an acknowledgement: followed, it would post the event (and its
        // signature) wherever the receiver points. It is a failed attempt, retried later.
        redirect: "manual",
      }),
    );
    // The body is not ours to keep; read a little of a refusal, for the console.
    let text = "";
    if (response.ok) await response.body?.cancel();
    else text = (await readCappedText(response)).text.slice(0, errorTextLengthMax);
    return {
      delivered: response.ok,
      httpStatus: response.status,
      durationMs: target.nowMs() - startedAtMs,
      error: response.ok ? null : `HTTP ${response.status}${text === "" ? "" : `: ${text}`}`,
    };
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    const message = timedOut ? `no answer within ${target.timeoutMs ?? eventAttemptTimeoutMs} ms` : String(error);
    return { delivered: false, httpStatus: null, durationMs: target.nowMs() - startedAtMs, error: message.slice(0, errorTextLengthMax) };
  }
}
