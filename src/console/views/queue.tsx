// The needs_review queue: oldest first, each with the amount it freezes and how long it has
// waited, and the total frozen across the whole queue.
import type { ReviewQueue } from "../data/queue.ts";
import { formatCents, formatDuration, formatTime } from "../format.ts";
import { Layout } from "./layout.tsx";

export function QueuePage({ queue, csrfToken, nowMs }: { queue: ReviewQueue; csrfToken: string; nowMs: number }) {
  return (
    <Layout title="Review queue" csrfToken={csrfToken}>
      <div class="figures">
        <div class="figure">
          <span class="label">Waiting for review</span>
          <span class="value">{queue.count}</span>
        </div>
        <div class="figure">
          <span class="label">Total frozen</span>
          <span class="value">{formatCents(queue.totalCents)}</span>
        </div>
      </div>
      {queue.count === 0 ? (
        <p>No transfer waits for review.</p>
      ) : (
        <div class="table-wrap">
          <table class="cards">
            <caption>
              Transfers in needs_review, oldest first
              {queue.items.length < queue.count ? ` (the first ${queue.items.length} of ${queue.count})` : ""}
            </caption>
            <thead>
              <tr>
                <th scope="col">Transfer</th>
                <th scope="col">Account</th>
                <th scope="col" class="num">
                  Frozen
                </th>
                <th scope="col">In review for</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {queue.items.map((item) => (
                <tr>
                  <td data-label="Transfer">
                    <a href={`/console/transfers/${item.id}`}>
                      <code>{item.id}</code>
                    </a>
                  </td>
                  <td data-label="Account">
                    <a href={`/console/accounts/${encodeURIComponent(item.accountId)}`}>{item.accountId}</a>
                  </td>
                  <td data-label="Frozen" class="num">
                    {formatCents(item.amountCents)}
                  </td>
                  <td data-label="In review for">{formatDuration(nowMs - Date.parse(item.reviewSince))}</td>
                  <td data-label="Created">{formatTime(item.createdAt)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <td colspan={2}>Total ({queue.count})</td>
                <td class="num">{formatCents(queue.totalCents)}</td>
                <td colspan={2} />
              </tr>
            </tfoot>
          </table>
        </div>
      )}
    </Layout>
  );
}
