// Scheduled transfers: the next to run first, each with its day and its next run's time (a
// retry after a short run says so), and the total they will ask of their accounts.
import type { ScheduledList } from "../data/scheduled.ts";
import { formatCents, formatTime } from "../format.ts";
import { Layout } from "./layout.tsx";

export function ScheduledPage({ list, csrfToken }: { list: ScheduledList; csrfToken: string }) {
  return (
    <Layout title="Scheduled transfers" csrfToken={csrfToken}>
      <div class="figures">
        <div class="figure">
          <span class="label">Scheduled</span>
          <span class="value">{list.count}</span>
        </div>
        <div class="figure">
          <span class="label">Total to send (nothing held yet)</span>
          <span class="value">{formatCents(list.totalCents)}</span>
        </div>
      </div>
      {list.count === 0 ? (
        <p>No transfer is scheduled.</p>
      ) : (
        <div class="table-wrap">
          <table class="cards">
            <caption>
              Transfers in scheduled, next run first
              {list.items.length < list.count ? ` (the first ${list.items.length} of ${list.count})` : ""}
            </caption>
            <thead>
              <tr>
                <th scope="col">Transfer</th>
                <th scope="col">Account</th>
                <th scope="col" class="num">
                  Amount
                </th>
                <th scope="col">Scheduled for</th>
                <th scope="col">Next run</th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((item) => (
                <tr>
                  <td data-label="Transfer">
                    <a href={`/console/transfers/${item.id}`}>
                      <code>{item.id}</code>
                    </a>
                  </td>
                  <td data-label="Account">
                    <a href={`/console/accounts/${encodeURIComponent(item.accountId)}`}>{item.accountId}</a>
                  </td>
                  <td data-label="Amount" class="num">
                    {formatCents(item.amountCents)}
                  </td>
                  <td data-label="Scheduled for">{item.scheduledFor}</td>
                  <td data-label="Next run">{`${formatTime(item.nextRunAt)}${item.shortRuns > 0 ? " (evening retry)" : ""}`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Layout>
  );
}
