// One JSON logger for every room: each line is `{ event, request_id | transfer_id, ...fields }`
// on one line, bounded, and never throws, so a log line can be searched the same way whoever
// wrote it. `event` and the id win over fields of the same name so they can always be trusted.
//
//   log(c, "transfer_created", { transfer_id });                // in a request: its X-Request-Id
//   logTransfer(transferId, "events_delivered", { delivered }); // in a saga object
//   logEvent("sweep", { poked });                               // the Worker's own work
import type { Context } from "hono";
import { redactUrlSecrets } from "./redact.ts";

export type LogLevel = "info" | "warn" | "error";
/** Bounds one log line (to about this many characters): a runaway field must not flood the log pipeline. */
export const logLineLengthMax = 8 * 1024;

type Fields = Record<string, unknown>;

/** The request id if the request-id middleware ran; `c` is untyped so any app's context fits. */
export function requestIdOf(c: Context): string | undefined {
  const id: unknown = c.get("requestId");
  return typeof id === "string" ? id : undefined;
}

/** A line about a request, named by its request id. */
export function log(c: Context, event: string, fields: Fields = {}, level: LogLevel = "info"): void {
  write({ event, request_id: requestIdOf(c) ?? null }, fields, level);
}

/** A line about a transfer, named by its id (null when an object does not know it yet). */
export function logTransfer(transferId: string | null, event: string, fields: Fields = {}, level: LogLevel = "info"): void {
  write({ event, transfer_id: transferId }, fields, level);
}

/** A line that belongs to no request and no one transfer (configuration, sweeps, pools). */
export function logEvent(event: string, fields: Fields = {}, level: LogLevel = "info"): void {
  write({ event }, fields, level);
}

function write(head: Fields, fields: Fields, level: LogLevel): void {
  // The head's keys come first and its values last: fields can neither reorder nor override them.
  const line = redactUrlSecrets(serialise(Object.assign({ ...head }, fields, head), head));
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}

function serialise(record: Fields, head: Fields): string {
  let line: string;
  try {
    // BigInt is not JSON; logging must never throw, so render it as a string.
    line = JSON.stringify(record, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value));
  } catch {
    line = JSON.stringify({ ...head, log_error: "fields not serialisable" });
  }
  if (line.length <= logLineLengthMax) return line;
  return JSON.stringify({ ...head, truncated: line.slice(0, logLineLengthMax) });
}
