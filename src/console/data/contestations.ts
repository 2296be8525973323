// The contestation queue (MED 2.0) for the console: those waiting for a decision (open or
// submitted), nearest deadline first, each with its transfer's story (its hops and what came
// back), so a person sees the claim and the Pix it is about side by side.
import { type BoundedList, boundedList, type TransferItem } from "./bounded-list.ts";

export interface ContestationItem extends TransferItem {
  transferId: string;
  state: string;
  reason: string;
  pspRef: string | null;
  createdAt: string;
  deadlineAt: string;
  /** The transfer's hops, oldest first, and its returns so far. */
  story: string[];
  returnedCents: number;
}

export type ContestationQueue = BoundedList<ContestationItem>;

export const contestationQueue = boundedList<ContestationItem>({
  set: `SELECT c.id, c.transfer_id, c.account_id, t.amount_cents, c.state, c.reason, c.psp_ref, c.created_at, c.deadline_at,
               t.returned_cents, ARRAY(SELECT h.to_state FROM transfer_history h WHERE h.transfer_id = t.id ORDER BY h.id) AS story
          FROM contestations c JOIN transfers t ON t.id = c.transfer_id WHERE c.state IN ('open', 'submitted')`,
  item: `'id', s.id, 'transferId', s.transfer_id, 'accountId', s.account_id, 'amountCents', s.amount_cents, 'state', s.state,
         'reason', s.reason, 'pspRef', s.psp_ref, 'createdAt', rfc3339(s.created_at), 'deadlineAt', rfc3339(s.deadline_at),
         'story', to_jsonb(s.story), 'returnedCents', s.returned_cents`,
  orderBy: "deadline_at, id",
});
