// Provider reconciliation (CONTRACT §5): our transfers held against the provider's statement.
// The page shows the latest runs with each divergence and its evidence, the paid-after-release
// cases still waiting for a person (cases.tsx), and a form to run any window of up to 24 hours.

import { uuidPattern } from "../../lib/ids.ts";
import type { CaseJson, RunJson } from "../../reconciliation/store.ts";
import { formatCount, formatTime } from "../format.ts";
import { OpenCases } from "./cases.tsx";
import { Layout, Message, Outcome } from "./layout.tsx";

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
        <dt>Run</dt>
        <dd>
          <code>{run.run_id}</code>
        </dd>
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

function Divergences({ run }: { run: RunJson }) {
  return (
    <div class="table-wrap">
      <table class="cards">
        <caption>Divergences of run {run.run_id}, with both sides' evidence</caption>
        <thead>
          <tr>
            <th scope="col">Kind</th>
            <th scope="col">Transfer</th>
            <th scope="col">Ours</th>
            <th scope="col">The provider's</th>
          </tr>
        </thead>
        <tbody>
          {run.divergences.map((raw) => {
            const d = asDivergence(raw);
            const transferId = String(d.transfer_id ?? "");
            return (
              <tr>
                <td data-label="Kind">
                  <code>{String(d.kind ?? "unknown")}</code>
                </td>
                <td data-label="Transfer">
                  {/* unknown_at_provider_key names the provider's key, not one of our transfers. */}
                  {uuidPattern.test(transferId) && d.kind !== "unknown_at_provider_key" ? (
                    <a href={`/console/transfers/${transferId}`}>{transferId}</a>
                  ) : (
                    <code>{transferId}</code>
                  )}
                  {typeof d.end_to_end_id === "string" ? (
                    <div class="hint">
                      end-to-end <code>{d.end_to_end_id}</code>
                    </div>
                  ) : null}
                </td>
                <td data-label="Ours">
                  <pre>{JSON.stringify(d.ours ?? null, null, 2)}</pre>
                </td>
                <td data-label="The provider's">
                  <pre>{JSON.stringify(d.provider ?? null, null, 2)}</pre>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
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

function EarlierRuns({ runs }: { runs: RunJson[] }) {
  return (
    <div class="table-wrap">
      <table class="cards">
        <caption>Earlier runs, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Run</th>
            <th scope="col">Window</th>
            <th scope="col">Ran at</th>
            <th scope="col">Verdict</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => (
            <tr>
              <td data-label="Run">
                <code>{run.run_id}</code>
              </td>
              <td data-label="Window">{`${formatTime(run.from)} to ${formatTime(run.to)}`}</td>
              <td data-label="Ran at">{`${formatTime(run.ran_at)} by ${run.actor}`}</td>
              <td data-label="Verdict">{verdict(run)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
