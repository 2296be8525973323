// A transfer's returns (devolução, MED): money that came back after it completed, each credited
// to the customer once. Their ledger entries are listed with the settlement's.
import type { TransferReturn, TransferStory } from "../data/story.ts";
import { formatCents, formatTime } from "../format.ts";
import { type Column, DataTable } from "./table.tsx";

const returnColumns: Column<TransferReturn>[] = [
  { label: "Return id", cell: (r) => <code>{r.id}</code> },
  { label: "Amount", num: true, cell: (r) => formatCents(r.amount_cents) },
  { label: "Reason", cell: (r) => r.reason },
  { label: "At", cell: (r) => formatTime(r.at) },
];

export function Returns({ story }: { story: TransferStory }) {
  return (
    <DataTable
      caption={`${formatCents(story.returned_cents)} of ${formatCents(story.amount_cents)} came back, credited to the account`}
      columns={returnColumns}
      rows={story.returns}
      empty="Nothing came back: no return was reported for this Pix."
    />
  );
}
