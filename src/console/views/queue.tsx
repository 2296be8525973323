// The needs_review queue: oldest first, each with the amount it freezes and how long it has
// waited, and the total frozen across the whole queue.
import type { QueueItem, ReviewQueue } from "../data/queue.ts";
import { formatCents, formatDuration, formatTime } from "../format.ts";
import { BoundedPage } from "./bounded-page.tsx";
import { AccountLink, TransferLink } from "./links.tsx";
import type { Column } from "./table.tsx";

function queueColumns(nowMs: number): Column<QueueItem>[] {
  return [
    { label: "Transfer", cell: (item) => <TransferLink id={item.id} code /> },
    { label: "Account", cell: (item) => <AccountLink id={item.accountId} /> },
    { label: "Frozen", num: true, cell: (item) => formatCents(item.amountCents) },
    { label: "In review for", cell: (item) => formatDuration(nowMs - Date.parse(item.reviewSince)) },
    { label: "Created", cell: (item) => formatTime(item.createdAt) },
  ];
}

export function QueuePage({ queue, csrfToken, nowMs }: { queue: ReviewQueue; csrfToken: string; nowMs: number }) {
  return (
    <BoundedPage
      title="Review queue"
      csrfToken={csrfToken}
      list={queue}
      countLabel="Waiting for review"
      totalLabel="Total frozen"
      caption="Transfers in needs_review, oldest first"
      empty="No transfer waits for review."
      columns={queueColumns(nowMs)}
      foot={
        <>
          <td colspan={2}>Total ({queue.count})</td>
          <td class="num">{formatCents(queue.totalCents)}</td>
          <td colspan={2} />
        </>
      }
    />
  );
}
