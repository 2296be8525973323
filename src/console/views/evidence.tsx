// The transfer's record of proof: every transition with its reason and actor, every provider
// call with its answer, and the hold with the ledger entries it produced.
import { answerFields, lastDefinitiveCall } from "../compare/provider-answer.ts";
import type { HistoryEntry, LedgerEntry, ProviderCall, TransferStory } from "../data/story.ts";
import { formatCents, formatTime } from "../format.ts";
import { Comparison } from "./comparison.tsx";
import { StateBadge } from "./layout.tsx";
import { type Column, DataTable } from "./table.tsx";

/** JSON evidence as text: provider answers are untrusted, and JSX escapes whatever they say. */
export function JsonBlock({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span>—</span>;
  return <pre>{JSON.stringify(value, null, 2)}</pre>;
}

/** An operator's row is actored by the person (or ops-token) who decided: say it is an operator. */
function actorOf(h: HistoryEntry): string {
  return h.actor === "saga" || h.actor === "provider" ? h.actor : `operator (${h.actor})`;
}

const historyColumns: Column<HistoryEntry>[] = [
  { label: "At", cell: (h) => formatTime(h.at) },
  { label: "State", cell: (h) => <StateBadge state={h.state} /> },
  { label: "From", cell: (h) => h.from ?? "—" },
  { label: "Reason", cell: (h) => h.reason ?? "—" },
  { label: "Actor", cell: actorOf },
  { label: "Evidence", cell: (h) => <JsonBlock value={h.evidence} /> },
];

export function Timeline({ history }: { history: HistoryEntry[] }) {
  return <DataTable caption="Every state the transfer went through, oldest first" columns={historyColumns} rows={history} />;
}

const callColumns: Column<ProviderCall>[] = [
  { label: "At", cell: (p) => formatTime(p.at) },
  { label: "Call", cell: (p) => p.kind },
  { label: "Outcome", cell: (p) => <code>{p.outcome}</code> },
  { label: "HTTP", num: true, cell: (p) => p.http_status ?? "—" },
  { label: "Took", num: true, cell: (p) => `${p.duration_ms} ms` },
  { label: "Answer", cell: (p) => <RawAnswer value={p.detail} /> },
];

/** A call's answer as received, folded: the table stays readable, the JSON is one click away. */
function RawAnswer({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span>—</span>;
  return (
    <details class="raw">
      <summary>Raw answer</summary>
      <JsonBlock value={value} />
    </details>
  );
}

/** Our record beside the provider's last definitive answer; nothing to compare until one came. */
export function RecordAgainstProvider({ story }: { story: TransferStory }) {
  const call = lastDefinitiveCall(story.provider_calls);
  if (call === null) {
    return story.provider_calls.length === 0 ? null : <p>The provider has not given a definitive answer about this transfer yet.</p>;
  }
  return (
    <Comparison
      caption={`Our record against the provider's last definitive answer (${call.kind} at ${formatTime(call.at)})`}
      fields={answerFields(story, call)}
      raw={call.detail}
      rawLabel="That answer as received (JSON)"
    />
  );
}

export function ProviderCalls({ calls }: { calls: ProviderCall[] }) {
  return (
    <DataTable
      caption="Each send and status check, with the provider's answer as received"
      columns={callColumns}
      rows={calls}
      empty="The provider was never called for this transfer."
    />
  );
}

const entryColumns: Column<LedgerEntry>[] = [
  { label: "Account", cell: (e) => <code>{e.account_id}</code> },
  { label: "Amount", num: true, cell: (e) => formatCents(e.amount_cents) },
  { label: "Balance after", num: true, cell: (e) => (e.balance_after_cents === null ? "—" : formatCents(e.balance_after_cents)) },
  { label: "At", cell: (e) => formatTime(e.at) },
];

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
      <DataTable
        caption="Ledger entries of the settlement, then of each return (they sum to zero)"
        columns={entryColumns}
        rows={story.entries}
        empty="No ledger entries: the hold was never settled, so no money moved in the ledger."
      />
    </>
  );
}
