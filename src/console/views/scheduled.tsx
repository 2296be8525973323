// Scheduled transfers: the next to run first, each with its day and its next run's time (a
// retry after a short run says so), and the total they will ask of their accounts.
import type { ScheduledItem, ScheduledList } from "../data/scheduled.ts";
import { formatCents, formatTime } from "../format.ts";
import { BoundedPage } from "./bounded-page.tsx";
import { AccountLink, TransferLink } from "./links.tsx";
import type { Column } from "./table.tsx";

const scheduledColumns: Column<ScheduledItem>[] = [
  { label: "Transfer", cell: (item) => <TransferLink id={item.id} code /> },
  { label: "Account", cell: (item) => <AccountLink id={item.accountId} /> },
  { label: "Amount", num: true, cell: (item) => formatCents(item.amountCents) },
  { label: "Scheduled for", cell: (item) => item.scheduledFor },
  { label: "Next run", cell: (item) => `${formatTime(item.nextRunAt)}${item.shortRuns > 0 ? " (evening retry)" : ""}` },
];

export interface ScheduledPageProps {
  list: ScheduledList;
  /** The account the list is narrowed to (`?account=`), or null for every account. */
  accountId: string | null;
  csrfToken: string;
}

export function ScheduledPage({ list, accountId, csrfToken }: ScheduledPageProps) {
  return (
    <BoundedPage
      title="Scheduled transfers"
      csrfToken={csrfToken}
      list={list}
      countLabel="Scheduled"
      totalLabel="Total to send (nothing held yet)"
      caption={accountId === null ? "Transfers in scheduled, next run first" : `Transfers of ${accountId} in scheduled, next run first`}
      empty="No transfer is scheduled."
      columns={scheduledColumns}
    />
  );
}
