// Paid-after-release cases: a Pix that left after we released its hold. Never corrected
// against the customer; each waits here, with its evidence, until a person records a decision.
import { type CaseDecision, caseDecisions, caseNoteLengthMax } from "../../reconciliation/case-decisions.ts";
import type { CaseJson } from "../../reconciliation/store.ts";
import { divergenceFields, divergenceSides } from "../compare/divergence.ts";
import { formatCents, formatTime } from "../format.ts";
import { CodeFact } from "./code-fact.tsx";
import { Comparison } from "./comparison.tsx";

export const decisionLabels: Record<CaseDecision, string> = {
  recovered: "Recovered: the money came back from the recipient",
  written_off: "Written off: the house absorbs the loss",
  provider_error: "Provider error: the provider's record was wrong, no Pix left",
};

export function OpenCases({ cases, csrfToken }: { cases: CaseJson[]; csrfToken: string }) {
  return (
    <section aria-labelledby="cases-heading">
      <h2 id="cases-heading">Paid after release: waiting for a decision</h2>
      {cases.length === 0 ? <p>No case waits for a decision.</p> : cases.map((c) => <CaseCard item={c} csrfToken={csrfToken} />)}
    </section>
  );
}

function CaseCard({ item, csrfToken }: { item: CaseJson; csrfToken: string }) {
  const id = item.transfer_id;
  const sides = divergenceSides(item.evidence);
  return (
    <article class="panel" aria-label={`Case ${id}`}>
      <dl class="facts">
        <dt>Transfer</dt>
        <dd>
          <a href={`/console/transfers/${id}`}>{id}</a>
        </dd>
        <dt>Account</dt>
        <dd>
          <a href={`/console/accounts/${encodeURIComponent(item.account_id)}`}>{item.account_id}</a>
        </dd>
        <dt>Amount</dt>
        <dd>{formatCents(item.amount_cents)}</dd>
        <CodeFact label="End-to-end id" value={item.end_to_end_id ?? "none"} />
        <dt>Opened</dt>
        <dd>{`${formatTime(item.opened_at)} by run ${item.run_id}`}</dd>
      </dl>
      <Comparison
        caption="Our release against the provider's confirmation"
        fields={divergenceFields(sides.ours, sides.provider)}
        raw={item.evidence}
        rawLabel="The evidence as recorded: our release and the provider's confirmation (JSON)"
      />
      <form class="stack" method="post" action={`/console/provider-reconciliation/cases/${id}/decision`}>
        <input type="hidden" name="csrf" value={csrfToken} />
        <fieldset>
          <legend>What became of this money?</legend>
          {caseDecisions.map((decision, index) => (
            <div class="choice">
              <input type="radio" id={`decision-${id}-${decision}`} name="decision" value={decision} required={index === 0} />
              <label for={`decision-${id}-${decision}`}>{decisionLabels[decision]}</label>
            </div>
          ))}
        </fieldset>
        <div>
          <label for={`note-${id}`}>
            Note <span class="hint">(required: what you checked or did; it goes into the audit)</span>
          </label>
          <textarea id={`note-${id}`} name="note" required maxlength={caseNoteLengthMax} />
        </div>
        <div class="actions">
          <button type="submit">Record decision</button>
        </div>
      </form>
    </article>
  );
}
