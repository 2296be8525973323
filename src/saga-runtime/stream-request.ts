// The request the edge sends a transfer's object to open its live stream, and the object's
// answer, in one place for both sides. The edge has checked the caller owns the transfer, so it
// names the account and how many streams the account may hold (MAX_STREAMS_PER_ACCOUNT); the
// object enforces both caps, the transfer's and the account's.
import type { StreamCap, StreamOpened } from "./event-stream.ts";

export type { StreamCap };

export interface StreamOpening {
  accountId: string;
  /** The sequence the client saw last (Last-Event-ID), or null for a fresh stream. */
  lastEventId: number | null;
  accountStreamsMax: number;
}

const accountHeader = "x-account-id";
const accountStreamsMaxHeader = "x-account-streams-max";
const lastEventIdHeader = "last-event-id";
/** Which cap refused a stream: a header of the object's 429. */
export const streamCapHeader = "stream-cap";

export function streamRequest(opening: StreamOpening): Request {
  const headers: Record<string, string> = {
    [accountHeader]: opening.accountId,
    [accountStreamsMaxHeader]: String(opening.accountStreamsMax),
  };
  if (opening.lastEventId !== null) headers[lastEventIdHeader] = String(opening.lastEventId);
  return new Request("https://transfer-saga/events", { headers });
}

/** null: not a request the edge builds (a bug, never a client's input). */
export function readStreamRequest(request: Request): StreamOpening | null {
  const accountId = request.headers.get(accountHeader);
  const accountStreamsMax = Number(request.headers.get(accountStreamsMaxHeader));
  const raw = request.headers.get(lastEventIdHeader);
  if (accountId === null || accountId === "" || !Number.isSafeInteger(accountStreamsMax) || accountStreamsMax < 1) return null;
  if (raw !== null && !/^\d{1,9}$/.test(raw)) return null;
  return { accountId, accountStreamsMax, lastEventId: raw === null ? null : Number(raw) };
}

export function isStreamCap(value: string | null): value is StreamCap {
  return value === "account" || value === "transfer";
}

/** The object's answer: the stream, or a bare status for the edge to turn into a problem. */
export function streamAnswer(opened: StreamOpened): Response {
  switch (opened.outcome) {
    case "opened":
      return new Response(opened.stream, { headers: { "content-type": "text/event-stream", "cache-control": "no-store" } });
    case "no_events":
      return new Response(null, { status: 404 });
    case "ahead":
      return new Response(null, { status: 400 });
    case "full": {
      const retryAfterSeconds = Math.max(1, Math.ceil(opened.retryAfterMs / 1000));
      return new Response(null, { status: 429, headers: { "retry-after": String(retryAfterSeconds), [streamCapHeader]: opened.cap } });
    }
  }
}
