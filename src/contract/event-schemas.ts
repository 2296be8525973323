// An outbound event (CONTRACT §6), as POSTed to EVENTS_URL and served by the event stream and
// GET /ops/events: a transfer's or a contestation's change, with the resource as its client saw
// it right after. A zod schema like the API's (schemas.ts), strict as they are.
import { z } from "zod";
import { contestationSchema, timestamp, transferSchema } from "./schemas.ts";

export const outboundEventSchema = z.strictObject({
  type: z.enum(["transfer.updated", "transfer.returned", "contestation.updated"]),
  id: z.string().regex(/^evt_/).describe("The event id: the `webhook-id` of every delivery attempt"),
  sequence: z.number().int().positive().describe("1, 2, 3... per transfer; the delivery order and the stream's event id"),
  occurred_at: timestamp,
  data: z
    .union([transferSchema, contestationSchema])
    .describe("The transfer (or, for contestation.updated, the contestation) as its client saw it right after this change"),
});
