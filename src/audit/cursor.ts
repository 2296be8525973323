// The audit list's cursor (GET /ops/audit and the console's audit page alike): the id of the
// last entry shown, sealed (src/lib/cursor-seal.ts), so only an id the API handed out pages.
import { type CursorKeySource, openCursor, sealCursor } from "../lib/cursor-seal.ts";

const scope = "audit";
const beforeIdPattern = /^[1-9]\d{0,15}$/;

/** The id to page before: null for the first page, "not_issued" for a cursor the API did not give. */
export async function auditBeforeId(source: CursorKeySource, cursor: string | undefined): Promise<number | null | "not_issued"> {
  if (cursor === undefined) return null;
  const position = await openCursor(source, scope, cursor);
  return position !== null && beforeIdPattern.test(position) ? Number(position) : "not_issued";
}

export async function auditNextCursor(source: CursorKeySource, nextBeforeId: number | null): Promise<string | null> {
  return nextBeforeId === null ? null : sealCursor(source, scope, String(nextBeforeId));
}
