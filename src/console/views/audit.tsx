// The audit page: who did what, newest first, filtered by actor and account, one page at a time.
import type { AuditEntry } from "../../audit/audit-reads.ts";
import { formatTime } from "../format.ts";
import { JsonBlock } from "./evidence.tsx";
import { Layout } from "./layout.tsx";
import { AccountLink, TransferLink } from "./links.tsx";
import { type Column, DataTable } from "./table.tsx";

export interface AuditPageProps {
  entries: AuditEntry[];
  actor: string;
  accountId: string;
  nextCursor: string | null;
  csrfToken: string;
}

const auditColumns: Column<AuditEntry>[] = [
  { label: "At", cell: (e) => formatTime(e.at) },
  { label: "Actor", cell: (e) => e.actor },
  { label: "Action", cell: (e) => e.action },
  { label: "Account", cell: (e) => (e.account_id === null ? "—" : <AccountLink id={e.account_id} />) },
  { label: "Transfer", cell: (e) => (e.transfer_id === null ? "—" : <TransferLink id={e.transfer_id} />) },
  { label: "Details", cell: (e) => <JsonBlock value={e.details} /> },
];

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
      <DataTable caption="Operator actions, newest first" columns={auditColumns} rows={entries} empty="No operator action matches." />
      {nextCursor === null ? null : <a href={`/console/audit?${next.toString()}`}>Older actions</a>}
    </Layout>
  );
}
