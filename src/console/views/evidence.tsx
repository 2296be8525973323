// The transfer's record of proof: every transition with its reason and actor, every provider
// call with its answer, and the hold with the ledger entries it produced.
import type { HistoryEntry, ProviderCall, TransferStory } from "../data/story.ts";
import { formatCents, formatTime } from "../format.ts";
import { StateBadge } from "./layout.tsx";

/** JSON evidence as text: provider answers are untrusted, and JSX escapes whatever they say. */
export function JsonBlock({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span>—</span>;
  return <pre>{JSON.stringify(value, null, 2)}</pre>;
}

export function Timeline({ history }: { history: HistoryEntry[] }) {
  return (
    <div class="table-wrap">
      <table class="cards">
        <caption>Every state the transfer went through, oldest first</caption>
        <thead>
          <tr>
            <th scope="col">At</th>
            <th scope="col">State</th>
            <th scope="col">From</th>
            <th scope="col">Reason</th>
            <th scope="col">Actor</th>
            <th scope="col">Evidence</th>
          </tr>
        </thead>
        <tbody>
          {history.map((h) => (
            <tr>
              <td data-label="At">{formatTime(h.at)}</td>
              <td data-label="State">
                <StateBadge state={h.state} />
              </td>
              <td data-label="From">{h.from ?? "—"}</td>
              <td data-label="Reason">{h.reason ?? "—"}</td>
              <td data-label="Actor">{actorOf(h)}</td>
              <td data-label="Evidence">
                <JsonBlock value={h.evidence} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** An operator's row is actored by the person (or ops-token) who decided: say it is an operator. */
function actorOf(h: HistoryEntry): string {
  return h.actor === "saga" || h.actor === "provider" ? h.actor : `operator (${h.actor})`;
}

export function ProviderCalls({ calls }: { calls: ProviderCall[] }) {
  if (calls.length === 0) return <p>The provider was never called for this transfer.</p>;
  return (
    <div class="table-wrap">
      <table class="cards">
        <caption>Each send and status check, with the provider's answer as received</caption>
        <thead>
          <tr>
            <th scope="col">At</th>
            <th scope="col">Call</th>
            <th scope="col">Outcome</th>
            <th scope="col" class="num">
              HTTP
            </th>
            <th scope="col" class="num">
              Took
            </th>
            <th scope="col">Answer</th>
          </tr>
        </thead>
        <tbody>
          {calls.map((p) => (
            <tr>
              <td data-label="At">{formatTime(p.at)}</td>
              <td data-label="Call">{p.kind}</td>
              <td data-label="Outcome">
                <code>{p.outcome}</code>
              </td>
              <td data-label="HTTP" class="num">
                {p.http_status ?? "—"}
              </td>
              <td data-label="Took" class="num">{`${p.duration_ms} ms`}</td>
              <td data-label="Answer">
                <JsonBlock value={p.detail} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function HoldAndEntries({ story }: { story: TransferStory }) {
  const hold = story.hold;
  return (
    <>
      {hold === null ? (
        <p>No hold was placed (the transfer ended before funds were reserved).</p>
      ) : (
        <dl class="facts panel">
          <dt>Hold status</dt>
          <dd>
            <strong>{hold.status}</strong>
          </dd>
          <dt>Held amount</dt>
          <dd>{formatCents(hold.amount_cents)}</dd>
          <dt>Placed at</dt>
          <dd>{formatTime(hold.created_at)}</dd>
          <dt>Resolved at</dt>
          <dd>{formatTime(hold.resolved_at)}</dd>
        </dl>
      )}
      {story.entries.length === 0 ? (
        <p>No ledger entries: the hold was never settled, so no money moved in the ledger.</p>
      ) : (
        <div class="table-wrap">
          <table class="cards">
            <caption>Ledger entries of the settlement, then of each return (they sum to zero)</caption>
            <thead>
              <tr>
                <th scope="col">Account</th>
                <th scope="col" class="num">
                  Amount
                </th>
                <th scope="col" class="num">
                  Balance after
                </th>
                <th scope="col">At</th>
              </tr>
            </thead>
            <tbody>
              {story.entries.map((e) => (
                <tr>
                  <td data-label="Account">
                    <code>{e.account_id}</code>
                  </td>
                  <td data-label="Amount" class="num">
                    {formatCents(e.amount_cents)}
                  </td>
                  <td data-label="Balance after" class="num">
                    {e.balance_after_cents === null ? "—" : formatCents(e.balance_after_cents)}
                  </td>
                  <td data-label="At">{formatTime(e.at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
