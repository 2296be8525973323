// The sandbox's scripted returns (CONTRACT §4): `returned@` gets the whole amount back,
// `partial-return@` two returns (half rounded down, then the rest). Each comes one confirmation
// delay (SANDBOX_CONFIRM_MS, as the payment was given: final_at_ms - accepted_at_ms) after the
// one before, starting from the confirmation. Pure: derived from the row and the time.
import type { ReturnReason } from "../../saga/returns.ts";
import { behaviourFor } from "./behaviours.ts";
import type { PaymentRow } from "./store.ts";

export interface ScriptedReturn {
  id: string;
  amountCents: number;
  reason: ReturnReason;
  /** The Pix arrangement's code for the reason, as Efí reports it. */
  code: string;
  atMs: number;
}

/** Every return the payment will ever get, in order. */
export function scriptedReturns(row: PaymentRow): ScriptedReturn[] {
  const script = behaviourFor(row.pix_key).returns;
  if (script === "none") return [];
  // At least 1 ms apart, so their order is their time even with SANDBOX_CONFIRM_MS=0.
  const stepMs = Math.max(row.final_at_ms - row.accepted_at_ms, 1);
  const at = (n: number): number => row.final_at_ms + n * stepMs;
  if (script === "whole") {
    return [{ id: returnId(row, 1), amountCents: row.amount_cents, reason: "returned_by_recipient", code: "MD06", atMs: at(1) }];
  }
  const halfCents = Math.floor(row.amount_cents / 2);
  const halves: ScriptedReturn[] = [
    { id: returnId(row, 2), amountCents: row.amount_cents - halfCents, reason: "fraud", code: "FR01", atMs: at(2) },
  ];
  // One cent cannot be halved: it comes back whole, once.
  if (halfCents > 0) halves.unshift({ id: returnId(row, 1), amountCents: halfCents, reason: "fraud", code: "FR01", atMs: at(1) });
  return halves;
}

/** The returns that already came back at `nowMs`. */
export function returnsBy(row: PaymentRow, nowMs: number): ScriptedReturn[] {
  return scriptedReturns(row).filter((r) => r.atMs <= nowMs);
}

/** When the next return after `nowMs` comes back, if one does. */
export function nextReturnAtMs(row: PaymentRow, nowMs: number): number | null {
  return scriptedReturns(row).find((r) => r.atMs > nowMs)?.atMs ?? null;
}

/** A return id as the Pix arrangement writes them: `D` and 31 characters, from the payment's E2E id. */
function returnId(row: PaymentRow, n: number): string {
  const base = (row.end_to_end_id ?? `E${row.idempotency_key.replaceAll("-", "")}`).slice(1, 31);
  return `D${base.padEnd(30, "0")}${n}`;
}
