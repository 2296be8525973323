// A transfer's record against the provider's last definitive answer about it (a send accepted or
// refused, a status confirmed, rejected or still processing): the fate, the amount, the
// end-to-end id, the key paid and the order's id, read from the answer as received in either
// dialect the adapters speak (the generic API's snake_case, Efí's Portuguese). What the answer
// does not state is shown as not stated; the raw answer stays one click away.
import { centsFromValor, transferIdOfIdEnvio } from "../../provider/efi/money.ts";
import { sameFate } from "../../reconciliation/match.ts";
import type { ProviderCall, TransferStory } from "../data/story.ts";
import { formatCents } from "../format.ts";
import { type ComparedField, compared } from "./fields.ts";

type Body = Record<string, unknown>;

const isRecord = (value: unknown): value is Body => typeof value === "object" && value !== null && !Array.isArray(value);

/** The last call whose answer said something: unknowns (timeouts, 5xx, unreadable) prove nothing. */
export function lastDefinitiveCall(calls: readonly ProviderCall[]): ProviderCall | null {
  return calls.findLast((call) => !call.outcome.startsWith("unknown")) ?? null;
}

/** The answer's body as received (the saga records `{ body, error }`), when it is an object. */
export function answerBody(call: ProviderCall): Body {
  const body = isRecord(call.detail) ? call.detail.body : undefined;
  return isRecord(body) ? body : {};
}

/** The provider's word in the statement's vocabulary: a send accepted is still processing; not found was never paid. */
export function fateOf(outcome: string): string {
  if (outcome === "accepted") return "processing";
  if (outcome === "not_found" || outcome.startsWith("rejected")) return "rejected";
  return outcome;
}

function firstString(...values: unknown[]): string | null {
  for (const value of values) if (typeof value === "string") return value;
  return null;
}

function amountCentsOf(body: Body): number | null {
  if (typeof body.amount_cents === "number" && Number.isInteger(body.amount_cents)) return body.amount_cents;
  return typeof body.valor === "string" ? centsFromValor(body.valor) : null;
}

function orderIdOf(body: Body): string | null {
  if (typeof body.idempotency_key === "string") return body.idempotency_key;
  return typeof body.idEnvio === "string" ? transferIdOfIdEnvio(body.idEnvio) : null;
}

export function answerFields(story: TransferStory, call: ProviderCall): ComparedField[] {
  const body = answerBody(call);
  const theirCents = amountCentsOf(body);
  const recipient = isRecord(body.favorecido) ? body.favorecido.chave : undefined;
  return [
    {
      label: "Outcome",
      ours: story.failure_reason === null ? story.state : `${story.state} (${story.failure_reason})`,
      theirs: call.outcome,
      differs: !sameFate(story.state, fateOf(call.outcome)),
    },
    compared("Amount", formatCents(story.amount_cents), theirCents === null ? null : formatCents(theirCents)),
    compared("End-to-end id", story.end_to_end_id, firstString(body.end_to_end_id, body.endToEndId, body.e2eId)),
    compared("Pix key", story.pix_key, firstString(body.pix_key, body.chave, recipient)),
    compared("Order id", story.id, orderIdOf(body)),
  ];
}
