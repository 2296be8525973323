// Reconciliation: the ledger checked against itself, run when the page opens and on the button.
import type { Reconciliation } from "../../ledger/ledger.ts";
import { formatTime } from "../format.ts";
import { Layout, Message } from "./layout.tsx";
import { type Column, DataTable } from "./table.tsx";

const divergenceColumns: Column<Reconciliation["divergences"][number]>[] = [
  { label: "Kind", cell: (d) => <code>{String(d.kind ?? "unknown")}</code> },
  { label: "Details", cell: (d) => <pre>{JSON.stringify(d, null, 2)}</pre> },
];

export function ReconciliationPage({ report, ranAt, csrfToken }: { report: Reconciliation; ranAt: string; csrfToken: string }) {
  return (
    <Layout title="Reconciliation" csrfToken={csrfToken}>
      <p class="lead">Every balance equals the sum of its entries, every held amount equals its open holds, and all entries sum to zero.</p>
      {report.ok ? (
        <Message kind="notice">
          <p>
            <strong>Reconciled.</strong> {`${report.accounts_checked} account(s) checked, no divergence.`}
          </p>
        </Message>
      ) : (
        <Message kind="error">
          <p>
            <strong>{`${report.divergences.length} divergence(s) found`}</strong> across {report.accounts_checked} account(s).
          </p>
        </Message>
      )}
      <p>Ran at {formatTime(ranAt)}.</p>
      {report.divergences.length === 0 ? null : (
        <DataTable caption="Divergences, as the ledger reports them" columns={divergenceColumns} rows={report.divergences} />
      )}
      <form method="post" action="/console/reconciliation" class="actions">
        <input type="hidden" name="csrf" value={csrfToken} />
        <button type="submit">Run reconciliation now</button>
      </form>
    </Layout>
  );
}
