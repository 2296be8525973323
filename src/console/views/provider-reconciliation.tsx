// Provider reconciliation (CONTRACT §5): our transfers held against the provider's statement.
// The page shows the latest runs with each divergence, our record beside the provider's, the paid-after-release
// cases still waiting for a person (cases.tsx), and a form to run any window of up to 24 hours.

import { uuidPattern } from "../../lib/ids.ts";
import type { CaseJson, RunJson } from "../../reconciliation/store.ts";
import { divergenceFields, divergenceSides } from "../compare/divergence.ts";
import { formatCount, formatTime } from "../format.ts";
import { OpenCases } from "./cases.tsx";
import { CodeFact } from "./code-fact.tsx";
import { Comparison } from "./comparison.tsx";
import { Layout, Message, Outcome } from "./layout.tsx";
import { TransferLink } from "./links.tsx";
import { type Column, DataTable } from "./table.tsx";

export interface ProviderReconciliationProps {
  runs: RunJson[];
  cases: CaseJson[];
  /** What the run form shows: the previous São Paulo day, or what the operator typed. */
  window: { from: string; to: string };
  csrfToken: string;
  notice?: string | undefined;
  error?: string | undefined;
}

export function ProviderReconciliationPage({ runs, cases, window, csrfToken, notice, error }: ProviderReconciliationProps) {
  const [latest, ...older] = runs;
  return (
    <Layout title="Provider reconciliation" csrfToken={csrfToken}>
      <p class="lead">
        Our transfers held against the provider's statement: a Pix paid after we released it, a completed transfer the provider never made,
        an amount that differs, a payment under an id we never sent, a transfer still waiting on a final answer.
      </p>
      <Outcome notice={notice} error={error} />
      {latest === undefined ? <p>No provider reconciliation has run yet.</p> : <LatestRun run={latest} />}
      <OpenCases cases={cases} csrfToken={csrfToken} />
      <RunForm window={window} csrfToken={csrfToken} />
      {older.length === 0 ? null : <EarlierRuns runs={older} />}
    </Layout>
  );
}

function verdict(run: RunJson): string {
  if (!run.statement.complete)
    return `The statement could not be read in full (${run.statement.problem ?? "unknown"}): nothing is settled.`;
  return run.ok ? "Clean: no divergence." : `${formatCount(run.divergences.length, "divergence")} found.`;
}

function LatestRun({ run }: { run: RunJson }) {
  return (
    <section aria-labelledby="latest-heading">
      <h2 id="latest-heading">Latest run</h2>
      <Message kind={run.ok && run.statement.complete ? "notice" : "error"}>
        <p>
          <strong>{verdict(run)}</strong>{" "}
          {`${formatCount(run.checked, "transfer")} checked, ${formatCount(run.returns_applied, "return")} applied.`}
        </p>
      </Message>
      <dl class="facts panel">
        <CodeFact label="Run" value={run.run_id} />
        <dt>Window</dt>
        <dd>{`${formatTime(run.from)} to ${formatTime(run.to)}`}</dd>
        <dt>Ran at</dt>
        <dd>{`${formatTime(run.ran_at)} by ${run.actor}`}</dd>
      </dl>
      {run.divergences.length === 0 ? null : <Divergences run={run} />}
    </section>
  );
}

type DivergenceView = { kind?: unknown; transfer_id?: unknown; end_to_end_id?: unknown; ours?: unknown; provider?: unknown };

function asDivergence(value: unknown): DivergenceView {
  return typeof value === "object" && value !== null ? (value as DivergenceView) : {};
}

function DivergenceTransfer({ d }: { d: DivergenceView }) {
  const transferId = String(d.transfer_id ?? "");
  return (
    <>
      {/* unknown_at_provider_key names the provider's key, not one of our transfers. */}
      {uuidPattern.test(transferId) && d.kind !== "unknown_at_provider_key" ? <TransferLink id={transferId} /> : <code>{transferId}</code>}
      {typeof d.end_to_end_id === "string" ? (
        <>
          {" "}
          (end-to-end <code>{d.end_to_end_id}</code>)
        </>
      ) : null}
    </>
  );
}

function DivergenceCard({ d }: { d: DivergenceView }) {
  const kind = String(d.kind ?? "unknown");
  const { ours, provider } = divergenceSides(d);
  return (
    <article class="panel" aria-label={`Divergence ${kind} ${String(d.transfer_id ?? "")}`}>
      <p>
        <code>{kind}</code>: <DivergenceTransfer d={d} />
      </p>
      <Comparison
        caption="Our record against the provider's statement"
        fields={divergenceFields(ours, provider)}
        raw={{ ours: d.ours ?? null, provider: d.provider ?? null }}
        rawLabel="Both records as the run read them (JSON)"
      />
    </article>
  );
}

function Divergences({ run }: { run: RunJson }) {
  return (
    <section aria-labelledby="divergences-heading">
      <h3 id="divergences-heading">{`Divergences of run ${run.run_id}, our record beside the provider's`}</h3>
      {run.divergences.map((value) => (
        <DivergenceCard d={asDivergence(value)} />
      ))}
    </section>
  );
}

function RunForm({ window, csrfToken }: { window: { from: string; to: string }; csrfToken: string }) {
  return (
    <section aria-labelledby="run-heading">
      <h2 id="run-heading">Run a window</h2>
      <form class="stack panel" method="post" action="/console/provider-reconciliation">
        <input type="hidden" name="csrf" value={csrfToken} />
        <p class="hint">RFC 3339 instants, at most 24 hours apart. The daily run takes the previous São Paulo day, as here.</p>
        <div>
          <label for="from">From</label>
          <input id="from" name="from" type="text" required value={window.from} />
        </div>
        <div>
          <label for="to">To</label>
          <input id="to" name="to" type="text" required value={window.to} />
        </div>
        <div class="actions">
          <button type="submit">Run provider reconciliation</button>
        </div>
      </form>
    </section>
  );
}

const runColumns: Column<RunJson>[] = [
  { label: "Run", cell: (run) => <code>{run.run_id}</code> },
  { label: "Window", cell: (run) => `${formatTime(run.from)} to ${formatTime(run.to)}` },
  { label: "Ran at", cell: (run) => `${formatTime(run.ran_at)} by ${run.actor}` },
  { label: "Verdict", cell: verdict },
];

function EarlierRuns({ runs }: { runs: RunJson[] }) {
  return <DataTable caption="Earlier runs, newest first" columns={runColumns} rows={runs} />;
}
