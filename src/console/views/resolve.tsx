// Resolving a needs_review transfer takes two steps: the form (outcome and a required note),
// then a confirmation page that spells out what will happen to the money. No script needed.
import type { TransferStory } from "../data/story.ts";
import { formatCents } from "../format.ts";
import { Layout } from "./layout.tsx";

export type ResolveOutcome = "sent" | "not_sent";
export const noteLengthMax = 1_000;

export function effectOf(outcome: ResolveOutcome, story: TransferStory): string {
  return outcome === "sent"
    ? `The Pix left: settle the hold. ${formatCents(story.amount_cents)} leaves account ${story.account_id} for good (state completed).`
    : `The Pix was not made: release the hold. ${formatCents(story.amount_cents)} goes back to account ${story.account_id} (state compensated, not_sent).`;
}

export function ResolveForm({ story, csrfToken }: { story: TransferStory; csrfToken: string }) {
  return (
    <form class="stack panel" method="post" action={`/console/transfers/${story.id}/resolve`}>
      <input type="hidden" name="csrf" value={csrfToken} />
      <fieldset>
        <legend>What happened to this Pix?</legend>
        <div class="choice">
          <input type="radio" id="outcome-sent" name="outcome" value="sent" required />
          <label for="outcome-sent">Sent: the money left (settle the hold)</label>
        </div>
        <div class="choice">
          <input type="radio" id="outcome-not-sent" name="outcome" value="not_sent" />
          <label for="outcome-not-sent">Not sent: nothing left (release the hold to the account)</label>
        </div>
      </fieldset>
      <div>
        <label for="note">
          Note <span class="hint">(required: what you checked, e.g. the PSP statement; it goes into the history)</span>
        </label>
        <textarea id="note" name="note" required maxlength={noteLengthMax} />
      </div>
      <div class="actions">
        <button type="submit">Review and confirm…</button>
      </div>
    </form>
  );
}

export interface ConfirmProps {
  story: TransferStory;
  outcome: ResolveOutcome;
  note: string;
  csrfToken: string;
}

export function ConfirmPage({ story, outcome, note, csrfToken }: ConfirmProps) {
  const label = outcome === "sent" ? "Confirm: mark as sent" : "Confirm: mark as not sent";
  return (
    <Layout title="Confirm the resolution" csrfToken={csrfToken}>
      <div class="warning" role="alert">
        <p>
          <strong>This cannot be undone.</strong> {effectOf(outcome, story)}
        </p>
      </div>
      <dl class="facts panel">
        <dt>Transfer</dt>
        <dd>
          <code>{story.id}</code>
        </dd>
        <dt>Account</dt>
        <dd>
          <code>{story.account_id}</code>
        </dd>
        <dt>Amount</dt>
        <dd>{formatCents(story.amount_cents)}</dd>
        <dt>Outcome</dt>
        <dd>
          <strong>{outcome}</strong>
        </dd>
        <dt>Note</dt>
        <dd>{note}</dd>
      </dl>
      <form method="post" action={`/console/transfers/${story.id}/resolve`} class="actions">
        <input type="hidden" name="csrf" value={csrfToken} />
        <input type="hidden" name="outcome" value={outcome} />
        <input type="hidden" name="note" value={note} />
        <input type="hidden" name="confirm" value="yes" />
        <button type="submit" class={outcome === "sent" ? "" : "danger"}>
          {label}
        </button>
        <a class="button secondary" href={`/console/transfers/${story.id}`}>
          Cancel
        </a>
      </form>
    </Layout>
  );
}
