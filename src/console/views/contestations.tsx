// The contestation queue: nearest deadline first, a contestation past its deadline marked in
// words (not by colour alone), each beside its transfer's story: its hops and what came back.
import type { ContestationItem, ContestationQueue } from "../data/contestations.ts";
import { formatCents, formatTime } from "../format.ts";
import { BoundedPage } from "./bounded-page.tsx";
import { AccountLink, TransferLink } from "./links.tsx";
import type { Column } from "./table.tsx";

function columns(businessNowMs: number): Column<ContestationItem>[] {
  return [
    { label: "Contestation", cell: (item) => <code>{item.id}</code> },
    { label: "State", cell: (item) => `${item.state}${item.pspRef === null ? "" : ` (${item.pspRef})`}` },
    { label: "Reason", cell: (item) => item.reason },
    {
      label: "Deadline",
      cell: (item) =>
        Date.parse(item.deadlineAt) <= businessNowMs ? (
          <strong class="past-deadline">Past deadline: {formatTime(item.deadlineAt)}</strong>
        ) : (
          formatTime(item.deadlineAt)
        ),
    },
    { label: "Transfer", cell: (item) => <TransferLink id={item.transferId} code /> },
    { label: "Account", cell: (item) => <AccountLink id={item.accountId} /> },
    { label: "Amount", num: true, cell: (item) => formatCents(item.amountCents) },
    {
      label: "Transfer's story",
      cell: (item) => `${item.story.join(" → ")}${item.returnedCents > 0 ? `; ${formatCents(item.returnedCents)} back` : ""}`,
    },
  ];
}

export function ContestationsPage({
  queue,
  csrfToken,
  businessNowMs,
}: {
  queue: ContestationQueue;
  csrfToken: string;
  businessNowMs: number;
}) {
  return (
    <BoundedPage
      title="Contestations"
      csrfToken={csrfToken}
      list={queue}
      countLabel="Waiting for a decision"
      totalLabel="Total contested"
      caption="Contestations open or submitted, nearest deadline first"
      empty="No contestation waits for a decision."
      columns={columns(businessNowMs)}
    />
  );
}
