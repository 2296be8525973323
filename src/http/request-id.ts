// Request ids and structured logs: every response carries `X-Request-Id`, and every log line
// names the request it belongs to, so a client's report can be matched to our logs.
//
//   app.use(requestId());                        // first middleware, before everything else
//   c.get("requestId")                           // string, with Variables: RequestIdVariables
//   log(c, "transfer_created", { transfer_id }); // one JSON line on stdout
//   requestIdOf(c)                               // string | undefined, for code that runs without the middleware
import type { Context, MiddlewareHandler } from "hono";

export type RequestIdVariables = { requestId: string };

export const requestIdHeader = "X-Request-Id";
/** A client-chosen id longer than this, or with other characters, is replaced: it ends up in our logs. */
export const requestIdLengthMax = 64;
const saneRequestId = new RegExp(`^[A-Za-z0-9_-]{1,${requestIdLengthMax}}$`);

/** Reuses a sane incoming `X-Request-Id` (so a gateway's id follows the request), else a new UUID. */
export function requestId(): MiddlewareHandler<{ Variables: RequestIdVariables }> {
  return async (c, next) => {
    const incoming = c.req.header(requestIdHeader);
    const id = incoming !== undefined && saneRequestId.test(incoming) ? incoming : crypto.randomUUID();
    c.set("requestId", id);
    // Set before next() so responses built through `c` (including onError's) carry it...
    c.header(requestIdHeader, id);
    await next();
    // ...and again after, for handlers that returned a bare `new Response(...)`.
    if (c.res.headers.get(requestIdHeader) !== id) {
      c.res = new Response(c.res.body, c.res);
      c.res.headers.set(requestIdHeader, id);
    }
  };
}

/** The request id if the middleware ran; `c` is untyped so any app's context fits. */
export function requestIdOf(c: Context): string | undefined {
  const id: unknown = c.get("requestId");
  return typeof id === "string" ? id : undefined;
}

export type LogLevel = "info" | "warn" | "error";
/** Bounds one log line (to about this many characters): a runaway field must not flood the log pipeline. */
export const logLineLengthMax = 8 * 1024;

/**
 * Writes one JSON line `{ event, request_id, ...fields }`. `event` and `request_id` win over
 * fields of the same name so they can always be trusted when searching logs.
 */
export function log(c: Context, event: string, fields: Record<string, unknown> = {}, level: LogLevel = "info"): void {
  const line = serialise({ ...fields, event, request_id: requestIdOf(c) ?? null });
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}

function serialise(record: Record<string, unknown>): string {
  let line: string;
  try {
    // BigInt is not JSON; logging must never throw, so render it as a string.
    line = JSON.stringify(record, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value));
  } catch {
    line = JSON.stringify({ event: record.event, request_id: record.request_id, log_error: "fields not serialisable" });
  }
  if (line.length <= logLineLengthMax) return line;
  return JSON.stringify({ event: record.event, request_id: record.request_id, truncated: line.slice(0, logLineLengthMax) });
}
