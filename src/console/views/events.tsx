// The transfer page's outbound events (CONTRACT §6): each event, its delivery status, and every
// attempt with the receiver's status, duration and error, as GET /ops/events lists them.
import type { z } from "zod";
import type { opsEventSchema } from "../../http/schemas.ts";
import { formatTime } from "../format.ts";

export type ConsoleEvent = z.infer<typeof opsEventSchema>;

function attemptsText(event: ConsoleEvent): string {
  if (event.attempts.length === 0) return "not attempted";
  return event.attempts
    .map((a) => `${formatTime(a.at)}: ${a.http_status ?? "no answer"}, ${a.duration_ms} ms${a.error ? ` (${a.error})` : ""}`)
    .join("; ");
}

export function OutboundEvents({ events }: { events: ConsoleEvent[] }) {
  if (events.length === 0) return <p>No events recorded for this transfer.</p>;
  return (
    <div class="table-wrap">
      <table class="cards">
        <caption>Each change sent to the fintech's backend, in order, with every delivery attempt</caption>
        <thead>
          <tr>
            <th scope="col" class="num">
              #
            </th>
            <th scope="col">Event</th>
            <th scope="col">State</th>
            <th scope="col">Delivery</th>
            <th scope="col">Attempts</th>
          </tr>
        </thead>
        <tbody>
          {events.map((e) => (
            <tr>
              <td data-label="#" class="num">
                {e.sequence}
              </td>
              <td data-label="Event">
                <code>{e.id}</code> {e.type}
              </td>
              <td data-label="State">{e.data.state}</td>
              <td data-label="Delivery">
                {e.status}
                {e.status === "pending" && e.next_attempt_at !== null ? `, next ${formatTime(e.next_attempt_at)}` : ""}
              </td>
              <td data-label="Attempts">{attemptsText(e)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
