// Scheduled transfers: the next to run first, each with its day and its next run's time (a
// retry after a short run says so), and the total they will ask of their accounts.
import type { ScheduledItem, ScheduledList } from "../data/scheduled.ts";
import { formatCents, formatTime } from "../format.ts";
import { BoundedTable } from "./bounded-table.tsx";
import { Figure } from "./figure.tsx";
import { Layout } from "./layout.tsx";
import { AccountLink, TransferLink } from "./links.tsx";
import type { Column } from "./table.tsx";

const scheduledColumns: Column<ScheduledItem>[] = [
  { label: "Transfer", cell: (item) => <TransferLink id={item.id} code /> },
  { label: "Account", cell: (item) => <AccountLink id={item.accountId} /> },
  { label: "Amount", num: true, cell: (item) => formatCents(item.amountCents) },
  { label: "Scheduled for", cell: (item) => item.scheduledFor },
  { label: "Next run", cell: (item) => `${formatTime(item.nextRunAt)}${item.shortRuns > 0 ? " (evening retry)" : ""}` },
];

export function ScheduledPage({ list, csrfToken }: { list: ScheduledList; csrfToken: string }) {
  return (
    <Layout title="Scheduled transfers" csrfToken={csrfToken}>
      <div class="figures">
        <Figure label="Scheduled" value={list.count} />
        <Figure label="Total to send (nothing held yet)" value={formatCents(list.totalCents)} />
      </div>
      <BoundedTable
        list={list}
        caption="Transfers in scheduled, next run first"
        empty="No transfer is scheduled."
        columns={scheduledColumns}
      />
    </Layout>
  );
}
