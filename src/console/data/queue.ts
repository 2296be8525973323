// The needs_review queue: oldest first (worked in order of arrival), with how much money it
// freezes in total. The list is bounded; the count and total always cover the whole queue.
import { type BoundedList, boundedList, type TransferItem } from "./bounded-list.ts";

export interface QueueItem extends TransferItem {
  pixKey: string;
  createdAt: string;
  /** When it entered needs_review; its age in the queue counts from here. */
  reviewSince: string;
}

export type ReviewQueue = BoundedList<QueueItem>;

export const reviewQueue = boundedList<QueueItem>({
  set: `SELECT t.id, t.account_id, t.amount_cents, t.pix_key, t.created_at,
               (SELECT max(h.at) FROM transfer_history h WHERE h.transfer_id = t.id AND h.to_state = 'needs_review') AS review_since
          FROM transfers t WHERE t.state = 'needs_review'`,
  item: `'id', s.id, 'accountId', s.account_id, 'amountCents', s.amount_cents, 'pixKey', s.pix_key,
         'createdAt', rfc3339(s.created_at), 'reviewSince', rfc3339(coalesce(s.review_since, s.created_at))`,
  orderBy: "created_at, id",
});
