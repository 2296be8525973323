// What this API POSTs to the fintech's own backend (CONTRACT §6): OpenAPI 3.1's top-level
// `webhooks`, one entry per event type, each the request EVENTS_URL receives and what its
// answer means. The receiver's side of Standard Webhooks, signed with EVENTS_SECRET.
import { eventAttemptTimeoutMs } from "../../events/send.ts";
import { jsonRequestBody } from "./build.ts";
import type { Operation, Parameter } from "./types.ts";

const eventHeaders: Parameter[] = [
  {
    name: "webhook-id",
    in: "header",
    required: true,
    description: "The event's `id` (`evt_…`), the same on every retry: deduplicate on it.",
    schema: { type: "string", pattern: "^evt_" },
  },
  {
    name: "webhook-timestamp",
    in: "header",
    required: true,
    description: "Unix seconds of this attempt; refuse one too far from your clock (the official libraries allow 300 s).",
    schema: { type: "string", pattern: "^\\d+$" },
  },
  {
    name: "webhook-signature",
    in: "header",
    required: true,
    description:
      'Space-separated `v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{raw body}">` keyed with EVENTS_SECRET (never WEBHOOK_SECRET). Verify it over the raw bytes before parsing.',
    schema: { type: "string" },
  },
];

const delivery = `Delivered at least once and in order per transfer: \`sequence\` 1, 2, 3… and event \`n+1\` is not sent before \`n\` was acknowledged. Anything but a \`2xx\` within ${eventAttemptTimeoutMs / 1_000} s is retried under the same \`webhook-id\`, with backoff from EVENTS_RETRY_FIRST_MS doubling to 1 h, for at least 3 days; then the event is parked, later events of that transfer wait, and operators are alerted (\`GET /ops/events\`).`;

type EventType = "transfer.updated" | "transfer.returned" | "contestation.updated";

const operationIds: Record<EventType, string> = {
  "transfer.updated": "transferUpdatedEvent",
  "transfer.returned": "transferReturnedEvent",
  "contestation.updated": "contestationUpdatedEvent",
};

function eventWebhook(type: EventType, summary: string, what: string): { post: Operation } {
  const resource = type === "contestation.updated" ? "the contestation" : "the transfer";
  return {
    post: {
      operationId: operationIds[type],
      summary,
      description: `POSTed to EVENTS_URL when ${what}. \`data\` is ${resource} as its client saw it right after the change. ${delivery}`,
      tags: ["events"],
      security: [{ eventsSignature: [] }],
      parameters: eventHeaders,
      requestBody: jsonRequestBody("OutboundEvent", `An event with \`type\` \`${type}\`.`),
      responses: {
        "2XX": { description: "Acknowledged: this event is delivered, and the transfer's next one may be sent." },
        default: { description: "Not acknowledged (so is no answer): the same event is sent again later, and nothing after it meanwhile." },
      },
    },
  };
}

export function eventWebhooks(): Record<string, { post: Operation }> {
  return {
    "transfer.updated": eventWebhook(
      "transfer.updated",
      "A transfer changed state",
      "a transfer's state changes (one event per hop of its history)",
    ),
    "transfer.returned": eventWebhook(
      "transfer.returned",
      "Money came back",
      "the provider returns money of a completed transfer (a devolução)",
    ),
    "contestation.updated": eventWebhook(
      "contestation.updated",
      "A contestation changed",
      "a contestation of a transfer is made or changes state (in its transfer's sequence)",
    ),
  };
}
