// Resolving a needs_review transfer takes two steps: the form (outcome and a required note),
// then a confirmation page that spells out what will happen to the money. No script needed.
import type { TransferStory } from "../data/story.ts";
import { formatCents } from "../format.ts";
import { CodeFact } from "./code-fact.tsx";
import { Layout } from "./layout.tsx";

export type ResolveOutcome = "sent" | "not_sent" | "approve";
export const noteLengthMax = 1_000;

/** What each button does to the money, in the words the operator reads before confirming. */
export function effectOf(outcome: ResolveOutcome, story: TransferStory): string {
  const amount = formatCents(story.amount_cents);
  switch (outcome) {
    case "sent":
      return `The Pix left: settle the hold. ${amount} leaves account ${story.account_id} for good (state completed).`;
    case "approve":
      return `The Pix is sent now: ${amount} goes to the provider for ${story.pix_key} and leaves account ${story.account_id} once the provider confirms.`;
    case "not_sent":
      return story.held_before_sending
        ? `The Pix is never sent: release the hold. ${amount} goes back to account ${story.account_id} (state compensated, not_sent).`
        : `The Pix was not made: release the hold. ${amount} goes back to account ${story.account_id} (state compensated, not_sent).`;
  }
}

/** The two outcomes that fit this hold, with their labels. */
export function choicesFor(story: TransferStory): { outcome: ResolveOutcome; label: string }[] {
  if (story.held_before_sending) {
    return [
      { outcome: "approve", label: "Approve: send this Pix now (nothing has been sent yet)" },
      { outcome: "not_sent", label: "Reject: do not send it (release the hold to the account)" },
    ];
  }
  return [
    { outcome: "sent", label: "Sent: the provider paid it (settle the hold)" },
    { outcome: "not_sent", label: "Not sent: the provider did not pay it (release the hold to the account)" },
  ];
}

export function ResolveForm({ story, csrfToken }: { story: TransferStory; csrfToken: string }) {
  return (
    <form class="stack panel" method="post" action={`/console/transfers/${story.id}/resolve`}>
      <input type="hidden" name="csrf" value={csrfToken} />
      <fieldset>
        <legend>{story.held_before_sending ? "Held before sending: send this Pix?" : "What happened to this Pix?"}</legend>
        {choicesFor(story).map(({ outcome, label }, index) => (
          <div class="choice">
            <input type="radio" id={`outcome-${outcome}`} name="outcome" value={outcome} required={index === 0} />
            <label for={`outcome-${outcome}`}>{label}</label>
          </div>
        ))}
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
  const labels = { sent: "Confirm: mark as sent", approve: "Confirm: send this Pix now", not_sent: "Confirm: mark as not sent" };
  const label = labels[outcome];
  return (
    <Layout title="Confirm the resolution" csrfToken={csrfToken}>
      <div class="warning" role="alert">
        <p>
          <strong>This cannot be undone.</strong> {effectOf(outcome, story)}
        </p>
      </div>
      <dl class="facts panel">
        <CodeFact label="Transfer" value={story.id} />
        <CodeFact label="Account" value={story.account_id} />
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
        <button type="submit" class={outcome === "not_sent" ? "danger" : ""}>
          {label}
        </button>
        <a class="button secondary" href={`/console/transfers/${story.id}`}>
          Cancel
        </a>
      </form>
    </Layout>
  );
}
