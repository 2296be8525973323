// A provider's statement read to its end (CONTRACT §4, §4b): both adapters page through it with
// their own cursors and hand each page to this loop, which bounds it. A page that fails ends the
// read as incomplete, keeping what was read: never an exception, never a guess.
import type { ProviderAlert, ProviderEvidence, StatementItem, StatementOutcome } from "./port.ts";

/** CONTRACT §4 and §5: a statement window spans at most 24 hours. */
export const statementWindowMsMax = 24 * 60 * 60 * 1000;
/** Pages one statement may take; a day of sends at a page size of 100 fits many times over. */
export const statementPagesMax = 500;

export type PageRead<Cursor> =
  | { ok: true; items: StatementItem[]; next: Cursor | null }
  | { ok: false; why: string; evidence: ProviderEvidence | null; alert?: ProviderAlert };

/** Follows `next` from `first` until a page has none, at most `pagesMax` pages. */
export async function readStatement<Cursor>(
  first: Cursor,
  readPage: (cursor: Cursor) => Promise<PageRead<Cursor>>,
  pagesMax = statementPagesMax,
): Promise<StatementOutcome> {
  const items: StatementItem[] = [];
  const seen = new Set<string>();
  let cursor: Cursor | null = first;
  let pages = 0;
  while (cursor !== null) {
    if (pages >= pagesMax) return { complete: false, why: "too_many_pages", items, pages, evidence: null };
    // A provider answering the same cursor again would page forever.
    const key = JSON.stringify(cursor);
    if (seen.has(key)) return { complete: false, why: "cursor_repeated", items, pages, evidence: null };
    seen.add(key);
    const page: PageRead<Cursor> = await readPage(cursor);
    if (!page.ok) {
      return { complete: false, why: page.why, items, pages, evidence: page.evidence, ...(page.alert ? { alert: page.alert } : {}) };
    }
    pages += 1;
    items.push(...page.items);
    cursor = page.next;
  }
  return { complete: true, items, pages };
}

/** RFC 3339 in UTC, as both APIs take their window. */
export function windowInstant(atMs: number): string {
  return new Date(atMs).toISOString();
}
