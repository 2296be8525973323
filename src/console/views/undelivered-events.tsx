// The list behind the home's "Undelivered events": every outbound event not delivered yet,
// parked first (the receiver refused them for days: a person must look), then pending, oldest
// first, each with its transfer and its delivery attempts.
import { formatCount } from "../format.ts";
import { type ConsoleEvent, eventColumns } from "./events.tsx";
import { Figure } from "./figure.tsx";
import { Layout } from "./layout.tsx";
import { TransferLink } from "./links.tsx";
import { type Column, DataTable } from "./table.tsx";

const columns: Column<ConsoleEvent>[] = [{ label: "Transfer", cell: (e) => <TransferLink id={e.transfer_id} code /> }, ...eventColumns];

export function UndeliveredEventsPage({ events, count, csrfToken }: { events: ConsoleEvent[]; count: number; csrfToken: string }) {
  const shown = events.length < count ? ` (the first ${events.length} of ${count})` : "";
  return (
    <Layout title="Undelivered events" csrfToken={csrfToken}>
      <div class="figures">
        <Figure label="Not delivered yet" value={count} />
      </div>
      {count === 0 ? (
        <p>Every event was delivered.</p>
      ) : (
        <DataTable
          caption={`${formatCount(count, "event")} not delivered yet, parked first, then oldest first${shown}`}
          columns={columns}
          rows={events}
        />
      )}
    </Layout>
  );
}
