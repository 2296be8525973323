// The audit page: who did what, newest first, filtered by actor and account, one page at a time.
import type { AuditEntry } from "../../audit/audit-reads.ts";
import { formatTime } from "../format.ts";
import { JsonBlock } from "./evidence.tsx";
import { Layout } from "./layout.tsx";

export interface AuditPageProps {
  entries: AuditEntry[];
  actor: string;
  accountId: string;
  nextCursor: string | null;
  csrfToken: string;
}

export function AuditPage({ entries, actor, accountId, nextCursor, csrfToken }: AuditPageProps) {
  const next = new URLSearchParams({ ...(actor ? { actor } : {}), ...(accountId ? { account_id: accountId } : {}) });
  if (nextCursor !== null) next.set("cursor", nextCursor);
  return (
    <Layout title="Audit" csrfToken={csrfToken}>
      <form class="stack panel" method="get" action="/console/audit">
        <div>
          <label for="actor">Actor</label>
          <input id="actor" name="actor" type="text" value={actor} />
        </div>
        <div>
          <label for="account_id">Account</label>
          <input id="account_id" name="account_id" type="text" value={accountId} />
        </div>
        <div class="actions">
          <button type="submit">Filter</button>
        </div>
      </form>
      {entries.length === 0 ? (
        <p>No operator action matches.</p>
      ) : (
        <div class="table-wrap">
          <table class="cards">
            <caption>Operator actions, newest first</caption>
            <thead>
              <tr>
                <th scope="col">At</th>
                <th scope="col">Actor</th>
                <th scope="col">Action</th>
                <th scope="col">Account</th>
                <th scope="col">Transfer</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr>
                  <td data-label="At">{formatTime(e.at)}</td>
                  <td data-label="Actor">{e.actor}</td>
                  <td data-label="Action">{e.action}</td>
                  <td data-label="Account">
                    {e.account_id === null ? "—" : <a href={`/console/accounts/${encodeURIComponent(e.account_id)}`}>{e.account_id}</a>}
                  </td>
                  <td data-label="Transfer">
                    {e.transfer_id === null ? "—" : <a href={`/console/transfers/${e.transfer_id}`}>{e.transfer_id}</a>}
                  </td>
                  <td data-label="Details">
                    <JsonBlock value={e.details} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {nextCursor === null ? null : <a href={`/console/audit?${next.toString()}`}>Older actions</a>}
    </Layout>
  );
}
