// Scheduled transfers (Pix Agendado) for the console: the next to run first, with how much they
// will ask of their accounts in total. Nothing is held for them yet; the list is bounded, the
// count and total always cover every scheduled transfer (of one account, narrowed to it).
import { type BoundedList, boundedList, type TransferItem } from "./bounded-list.ts";

export interface ScheduledItem extends TransferItem {
  scheduledFor: string;
  /** Its recorded next run: the early slot of its day, or its evening retry. */
  nextRunAt: string;
  /** Runs that found too little available (then its evening retry is next). */
  shortRuns: number;
}

export type ScheduledList = BoundedList<ScheduledItem>;

export const scheduledTransfers = boundedList<ScheduledItem>({
  // $2: an account id to narrow to, or null for every account.
  set: "SELECT * FROM transfers WHERE state = 'scheduled' AND ($2::text IS NULL OR account_id = $2)",
  item: `'id', s.id, 'accountId', s.account_id, 'amountCents', s.amount_cents,
         'scheduledFor', to_char(s.scheduled_for, 'YYYY-MM-DD'), 'nextRunAt', rfc3339(s.next_check_at), 'shortRuns', s.short_runs`,
  orderBy: "next_check_at, id",
});
