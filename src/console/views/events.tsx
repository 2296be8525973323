// The transfer page's outbound events (CONTRACT §6): each event, its delivery status, and every
// attempt with the receiver's status, duration and error, as GET /ops/events lists them.
import type { z } from "zod";
import type { opsEventSchema } from "../../contract/ops-schemas.ts";
import { formatTime } from "../format.ts";
import { type Column, DataTable } from "./table.tsx";

export type ConsoleEvent = z.infer<typeof opsEventSchema>;

function attemptsText(event: ConsoleEvent): string {
  if (event.attempts.length === 0) return "not attempted";
  return event.attempts
    .map((a) => `${formatTime(a.at)}: ${a.http_status ?? "no answer"}, ${a.duration_ms} ms${a.error ? ` (${a.error})` : ""}`)
    .join("; ");
}

export const eventColumns: Column<ConsoleEvent>[] = [
  { label: "#", num: true, cell: (e) => e.sequence },
  {
    label: "Event",
    cell: (e) => (
      <>
        <code>{e.id}</code> {e.type}
      </>
    ),
  },
  { label: "State", cell: (e) => e.data.state },
  {
    label: "Delivery",
    cell: (e) => (
      <>
        {e.status}
        {e.status === "pending" && e.next_attempt_at !== null ? `, next ${formatTime(e.next_attempt_at)}` : ""}
      </>
    ),
  },
  { label: "Attempts", cell: attemptsText },
];

export function OutboundEvents({ events }: { events: ConsoleEvent[] }) {
  return (
    <DataTable
      caption="Each change sent to the fintech's backend, in order, with every delivery attempt"
      columns={eventColumns}
      rows={events}
      empty="No events recorded for this transfer."
    />
  );
}
