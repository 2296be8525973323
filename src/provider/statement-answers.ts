// The generic API's statement pages (CONTRACT §4: `GET {PROVIDER_URL}/pix?from=&to=`) judged
// like every other answer (classify.ts): a page is read whole or not at all. Paging is ours to
// choose (the contract leaves it open): `&cursor=` takes the previous page's `next_cursor`, and
// a page without one (absent or null) is the last.
import { z } from "zod";
import { returnsPerAnswerMax } from "../saga/returns.ts";
import {
  type AnswerBody,
  endToEndIdSchema,
  inconclusiveStatus,
  type ProviderExchange,
  parseBody,
  returnSchema,
  returnsExceed,
  usableAnswer,
} from "./classify.ts";
import type { ProviderEvidence, StatementItem } from "./port.ts";
import type { PageRead } from "./statement.ts";

/** More on one page is not this API talking. */
export const statementPageItemsMax = 1000;

const itemSchema = z.object({
  idempotency_key: z.string().regex(/^[\x21-\x7e]{1,255}$/),
  status: z.enum(["processing", "confirmed", "rejected"]),
  amount_cents: z.number().int().positive(),
  end_to_end_id: endToEndIdSchema.nullable().optional(),
  returns: z.array(returnSchema).max(returnsPerAnswerMax).optional(),
});

const pageSchema = z.object({
  data: z.array(itemSchema).max(statementPageItemsMax),
  next_cursor: z.string().min(1).max(1024).nullable().optional(),
});

/** `cursor` is the page's cursor; "" asks for the first page. */
export function classifyStatementPage(exchange: ProviderExchange, evidence: ProviderEvidence, cursor: string): PageRead<string> {
  const answer = usableAnswer(exchange);
  if (!answer.usable) return { ok: false, why: answer.why, evidence };
  if (answer.httpStatus !== 200) return { ok: false, ...inconclusiveStatus(answer.httpStatus), evidence };
  return statementPage(answer.body, evidence, cursor);
}

function statementPage(body: AnswerBody, evidence: ProviderEvidence, cursor: string): PageRead<string> {
  const page = parseBody(pageSchema, body);
  if (page === null) return { ok: false, why: "malformed_body", evidence };
  const items: StatementItem[] = [];
  for (const item of page.data) {
    const returns = item.returns ?? [];
    // Returns beyond the amount are about another payment, or a lie: the page proves nothing.
    if (returnsExceed(returns, item.amount_cents)) return { ok: false, why: "returns_exceed_amount", evidence };
    items.push({
      idempotencyKey: item.idempotency_key,
      status: item.status,
      amountCents: item.amount_cents,
      endToEndId: item.end_to_end_id ?? null,
      returns,
      returnsUnlisted: false,
    });
  }
  const next = page.next_cursor ?? null;
  if (next !== null && next === cursor) return { ok: false, why: "cursor_repeated", evidence };
  return { ok: true, items, next };
}
