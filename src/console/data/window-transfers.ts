// The list behind each of the home's transfer figures: the transfers created in the same window
// as the overview counts them (its bounds, to the minute), in one state or group of states, the
// compensated ones also by failure_reason. Newest first; the count and total cover them all.
import type { Queryable } from "../../db/queryable.ts";
import { type FailureReason, inFlightStates, type TransferState, transferStates } from "../../saga/states.ts";
import { windowBoundsSql } from "../../transfers/overview-reads.ts";
import { type BoundedList, boundedList, type TransferItem } from "./bounded-list.ts";

export interface WindowTransfer extends TransferItem {
  state: TransferState;
  failureReason: FailureReason | null;
  createdAt: string;
}

/** `in_flight` is the overview's group: every state the saga still advances. */
export type StateFilter = TransferState | "in_flight";

export interface WindowFilter {
  minutes: number;
  state: StateFilter | null;
  reason: FailureReason | null;
}

const read = boundedList<WindowTransfer>({
  // transfers_by_state (state, created_at), one range per state, as the overview reads them.
  set: `SELECT t.id, t.account_id, t.amount_cents, t.state, t.failure_reason, t.created_at
          FROM transfers t, (${windowBoundsSql("$2")}) b
         WHERE t.state = ANY($3::text[]) AND t.created_at >= b.from_at AND t.created_at <= b.to_at
           AND ($4::text IS NULL OR t.failure_reason = $4)`,
  item: `'id', s.id, 'accountId', s.account_id, 'amountCents', s.amount_cents, 'state', s.state,
         'failureReason', s.failure_reason, 'createdAt', rfc3339(s.created_at)`,
  orderBy: "created_at DESC, id",
});

function statesOf(state: StateFilter | null): readonly TransferState[] {
  if (state === null) return transferStates;
  return state === "in_flight" ? inFlightStates : [state];
}

export function windowTransfers(db: Queryable, filter: WindowFilter): Promise<BoundedList<WindowTransfer>> {
  return read(db, undefined, [filter.minutes, statesOf(filter.state), filter.reason]);
}
