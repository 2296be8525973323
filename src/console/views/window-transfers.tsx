// The list behind a figure of the home: the transfers created in its window, in the state (and
// for compensated ones the reason) the figure counts, newest first.

import type { BoundedList } from "../data/bounded-list.ts";
import type { WindowFilter, WindowTransfer } from "../data/window-transfers.ts";
import { formatCents, formatTime, formatWindow } from "../format.ts";
import { BoundedPage } from "./bounded-page.tsx";
import { StateBadge } from "./layout.tsx";
import { AccountLink, TransferLink } from "./links.tsx";
import type { Column } from "./table.tsx";

const columns: Column<WindowTransfer>[] = [
  { label: "Transfer", cell: (item) => <TransferLink id={item.id} code /> },
  { label: "Account", cell: (item) => <AccountLink id={item.accountId} /> },
  { label: "Amount", num: true, cell: (item) => formatCents(item.amountCents) },
  { label: "State", cell: (item) => <StateBadge state={item.state} /> },
  { label: "Reason", cell: (item) => (item.failureReason === null ? "—" : <code>{item.failureReason}</code>) },
  { label: "Created", cell: (item) => formatTime(item.createdAt) },
];

function describe(filter: WindowFilter): string {
  const state = filter.state === null ? "" : filter.state === "in_flight" ? " still in flight" : ` now ${filter.state}`;
  const reason = filter.reason === null ? "" : ` (${filter.reason})`;
  return `Transfers created in the last ${formatWindow(filter.minutes)}${state}${reason}`;
}

export function WindowTransfersPage({
  list,
  filter,
  csrfToken,
}: {
  list: BoundedList<WindowTransfer>;
  filter: WindowFilter;
  csrfToken: string;
}) {
  return (
    <BoundedPage
      title={describe(filter)}
      csrfToken={csrfToken}
      list={list}
      countLabel="Transfers"
      totalLabel="Total amount"
      caption="Newest first"
      empty="No transfer matches in this window."
      columns={columns}
    />
  );
}
