// A transfer's returns (devolução, MED): money that came back after it completed, each credited
// to the customer once. Their ledger entries are listed with the settlement's.
import type { TransferStory } from "../data/story.ts";
import { formatCents, formatTime } from "../format.ts";

export function Returns({ story }: { story: TransferStory }) {
  if (story.returns.length === 0) return <p>Nothing came back: no return was reported for this Pix.</p>;
  return (
    <div class="table-wrap">
      <table class="cards">
        <caption>{`${formatCents(story.returned_cents)} of ${formatCents(story.amount_cents)} came back, credited to the account`}</caption>
        <thead>
          <tr>
            <th scope="col">Return id</th>
            <th scope="col" class="num">
              Amount
            </th>
            <th scope="col">Reason</th>
            <th scope="col">At</th>
          </tr>
        </thead>
        <tbody>
          {story.returns.map((r) => (
            <tr>
              <td data-label="Return id">
                <code>{r.id}</code>
              </td>
              <td data-label="Amount" class="num">
                {formatCents(r.amount_cents)}
              </td>
              <td data-label="Reason">{r.reason}</td>
              <td data-label="At">{formatTime(r.at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
