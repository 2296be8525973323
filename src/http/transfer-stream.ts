// GET /v1/transfers/:id/events (CONTRACT §2): one transfer followed live as server-sent events,
// served by the transfer's own object after the owner check here; the object caps streams per
// account and per transfer, and this route turns its answer into the API's (429, 400, 503).
import { type Context, Hono } from "hono";
import { configuredOrThrow } from "../config/isolate.ts";
import { log } from "../lib/log.ts";
import { streamsPerTransferMax } from "../saga-runtime/event-stream.ts";
import { isStreamCap, type StreamCap, streamCapHeader, streamRequest } from "../saga-runtime/stream-request.ts";
import { callObject, ObjectFault } from "../web/object-call.ts";
import { problem } from "../web/problem.ts";
import type { AppEnv } from "./app-env.ts";
import { problemResponse, requestIdResponseHeader, retryAfterHeader, transferIdParameter } from "./openapi/build.ts";
import { documented } from "./openapi/describe.ts";
import { clientAuthResponses, clientSecurity } from "./openapi/security.ts";
import { ownTransfer } from "./own-transfer.ts";
import { validationProblem } from "./validation.ts";

export const transferStreamRoutes = new Hono<AppEnv>();

const streamFaultDetail = "The stream could not be opened; try again.";

const streamTransferDoc = documented({
  operationId: "streamTransfer",
  summary: "Follow one of your transfers live",
  description: [
    "A `text/event-stream` (server-sent events): first the transfer as it is now, then one `event: transfer.updated` per change, within a second of it, with `data` the transfer resource and `id` the change's sequence.",
    "The stream ends after a terminal state (`completed`, `compensated`, `canceled`), and after at most 5 minutes otherwise: reconnect with `Last-Event-ID` (the last `id` seen) to get every change since, without a gap (EventSource does this by itself).",
    `At most \`MAX_STREAMS_PER_ACCOUNT\` streams are open per account and ${streamsPerTransferMax} per transfer; past either, \`429\` with \`Retry-After\`. A stream holds its slot until it ends, for whatever reason (your client closes it, a terminal state, its 5 minutes).`,
  ].join(" "),
  tags: ["transfers"],
  security: clientSecurity,
  parameters: [
    transferIdParameter,
    {
      name: "Last-Event-ID",
      in: "header",
      required: false,
      description: "Resume after this change: the `id` of the last message received.",
      schema: { type: "string", pattern: "^[0-9]{1,9}$" },
    },
  ],
  responses: {
    "200": {
      description: "The stream. Each message: `id: <sequence>`, `event: transfer.updated`, `data: <the transfer as JSON>`.",
      headers: requestIdResponseHeader,
      content: { "text/event-stream": { schema: { type: "string" } } },
    },
    "400": problemResponse(
      "`Last-Event-ID` is not the id of a message this stream sends: not a sequence number, or above the transfer's latest.",
    ),
    ...clientAuthResponses,
    "404": problemResponse("No transfer of yours with this id."),
    "429": problemResponse(
      `Too many streams open: at most \`MAX_STREAMS_PER_ACCOUNT\` (10 by default) for your account, and ${streamsPerTransferMax} for one transfer (\`type\` ends in \`/rate-limited\`). Retry after \`Retry-After\`, by when the oldest of them has ended, or close one first.`,
      retryAfterHeader,
    ),
    "503": problemResponse("The stream could not be opened now; try again.", retryAfterHeader),
  },
});

/** The live stream (text/event-stream), served by the transfer's own object after the owner check. */
transferStreamRoutes.get("/:id/events", streamTransferDoc, async (c) => {
  const id = c.req.param("id");
  const lastEventId = c.req.header("last-event-id");
  if (lastEventId !== undefined && !/^\d{1,9}$/.test(lastEventId))
    return validationProblem(c, [{ field: "Last-Event-ID", message: "the sequence of an event this stream sent" }]);
  const own = await ownTransfer(c, id);
  if (!own.found) return own.answer;
  const opening = {
    accountId: c.get("accountId"),
    lastEventId: lastEventId === undefined ? null : Number(lastEventId),
    accountStreamsMax: configuredOrThrow(c.env).streamsPerAccountMax,
  };
  // Opening a stream writes nothing, so a reset on the way is retried like any RPC, then a 503.
  const streamed = await callObject(c, "events", () => c.env.TRANSFER_SAGA.getByName(id).fetch(streamRequest(opening)), streamFaultDetail);
  // A fresh Response: the object's has immutable headers, and the edge adds its own (no-store).
  if (streamed.status === 200) return new Response(streamed.body, streamed);
  await streamed.body?.cancel();
  if (streamed.status === 400)
    return validationProblem(c, [
      { field: "Last-Event-ID", message: "above the latest sequence of this transfer: an id this stream never sent" },
    ]);
  const cap = streamed.headers.get(streamCapHeader);
  if (streamed.status === 429 && isStreamCap(cap)) return tooManyStreams(c, cap, streamed.headers.get("retry-after") ?? "1");
  throw new ObjectFault(streamFaultDetail);
});

function tooManyStreams(c: Context<AppEnv>, cap: StreamCap, retryAfterSeconds: string): Response {
  log(c, "streams_capped", { account_id: c.get("accountId"), cap }, "warn");
  const detail =
    cap === "account"
      ? "Too many streams open for this account; close one, or retry after Retry-After (by then the oldest has ended)."
      : `Too many streams open for this transfer (at most ${streamsPerTransferMax}); retry after Retry-After.`;
  return problem(c, 429, { type: "rate-limited", detail, headers: { "Retry-After": retryAfterSeconds } });
}
