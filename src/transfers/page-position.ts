// Where a page of a client list ended (newest first: the last row's created_at and id), as the
// lists of transfers and of recurring transfers encode it before the API seals it.
import { uuidPattern } from "../lib/ids.ts";

/** Where a page ended; the API hands it out sealed (src/web/cursor-seal.ts), so it comes back only as issued. */
export interface Position {
  createdAt: string;
  id: string;
}

export function encodePosition(position: Position): string {
  return JSON.stringify([position.createdAt, position.id]);
}

/** As PostgreSQL renders a timestamptz in JSON: `2026-12-01T06:22:10.123456+00:00`. */
const cursorTimePattern = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?(?:Z|[+-](\d{2}):(\d{2}))$/;
/** PostgreSQL's own bound on a UTC offset (it renders its session's zone, UTC by default). */
const utcOffsetHoursMax = 15;
/** Transfers exist from the project's first year on; a cursor outside these years was never issued. */
const cursorYearMin = 2000;
const cursorYearMax = 9999;

/** A calendar date, clock time and UTC offset that exist (no February 30, no 24:00, no +16:00), in the years above. */
function isIssuableTime(createdAt: string): boolean {
  const parts = cursorTimePattern.exec(createdAt);
  if (!parts) return false;
  const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = parts.slice(1, 9).map((part) => Number(part ?? "0")) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (year < cursorYearMin || year > cursorYearMax || hour > 23 || minute > 59 || second > 59) return false;
  if (offsetHours > utcOffsetHoursMax || offsetMinutes > 59) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * Only a position this API could have issued: its exact encoding of a real time and a transfer
 * id. The seal already proves that; this is the second line, so that a key ever leaked still
 * cannot make PostgreSQL fail (a year-275760 date, a `+16:00` offset) instead of answering 400.
 */
export function decodePosition(raw: string): Position | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) return null;
  const [createdAt, id] = parsed;
  if (typeof createdAt !== "string" || typeof id !== "string") return null;
  if (!isIssuableTime(createdAt) || !uuidPattern.test(id)) return null;
  const position = { createdAt, id };
  return encodePosition(position) === raw ? position : null;
}

/** A list's rows as its query answers them: one more than `limit` when there is a next page. */
export interface PageRow<T> {
  resource: T;
  created_at: string;
  id: string;
}

/** The page shown and where the next one starts (null on the last page). */
export function pageOf<T>(rows: readonly PageRow<T>[], limit: number): { data: T[]; nextPosition: string | null } {
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return {
    data: shown.map((row) => row.resource),
    nextPosition: rows.length > limit && last ? encodePosition({ createdAt: last.created_at, id: last.id }) : null,
  };
}
