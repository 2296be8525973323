// The account page's recurring transfers: each recurrence (what it pays, how often, how many,
// its state) with its occurrences so far, each occurrence's transfer and its evening retry.
import type { OccurrenceItem, RecurrenceItem } from "../data/recurring.ts";
import { formatCents, formatTime } from "../format.ts";
import { StateBadge } from "./layout.tsx";
import { TransferLink } from "./links.tsx";
import { type Column, DataTable } from "./table.tsx";

const occurrenceColumns: Column<OccurrenceItem>[] = [
  { label: "#", num: true, cell: (o) => String(o.occurrence) },
  { label: "Date", cell: (o) => o.date },
  { label: "Transfer", cell: (o) => <TransferLink id={o.transferId} code /> },
  { label: "State", cell: (o) => <StateBadge state={o.state} /> },
  {
    label: "Evening retry",
    cell: (o) =>
      o.retryTransferId === null ? (
        "—"
      ) : (
        <>
          <TransferLink id={o.retryTransferId} code /> <StateBadge state={o.retryState ?? ""} />
        </>
      ),
  },
];

function Recurrence({ recurrence }: { recurrence: RecurrenceItem }) {
  const summary = `${formatCents(recurrence.amountCents)} ${recurrence.frequency}, ${recurrence.count} from ${recurrence.firstDate}`;
  return (
    <article aria-label={`Recurring transfer ${recurrence.id}`}>
      <h3>
        <code>{recurrence.id}</code> <StateBadge state={recurrence.state} />
      </h3>
      <p>
        {summary}; created {formatTime(recurrence.createdAt)}.
      </p>
      <DataTable
        caption={`Its ${recurrence.occurrences.length} occurrences so far, in order`}
        columns={occurrenceColumns}
        rows={recurrence.occurrences}
        empty="No occurrence opened."
      />
    </article>
  );
}

export function RecurringSection({ recurrences }: { recurrences: RecurrenceItem[] }) {
  return (
    <section aria-labelledby="recurring-heading">
      <h2 id="recurring-heading">Recurring transfers</h2>
      {recurrences.length === 0 ? (
        <p>No recurring transfer.</p>
      ) : (
        <>
          <p>The latest {recurrences.length}, newest first.</p>
          {recurrences.map((recurrence) => (
            <Recurrence recurrence={recurrence} />
          ))}
        </>
      )}
    </section>
  );
}
