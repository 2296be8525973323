// The transfer page: its facts, the resolve form when it waits for review, its timeline, the
// provider evidence, the money that came back (returns), and the hold with its ledger entries.
import type { TransferStory } from "../data/story.ts";
import { formatCents, formatCount, formatTime } from "../format.ts";
import { BrCodeDetails } from "./br-code.tsx";
import { type ConsoleEvent, OutboundEvents } from "./events.tsx";
import { HoldAndEntries, ProviderCalls, RecordAgainstProvider, Timeline } from "./evidence.tsx";
import { Layout, Outcome, StateBadge } from "./layout.tsx";
import { ResolveForm } from "./resolve.tsx";
import { Returns } from "./returns.tsx";

export interface TransferPageProps {
  story: TransferStory;
  /** Its outbound events, on the page that shows the transfer (not on a refused resolve). */
  events?: ConsoleEvent[];
  csrfToken: string;
  notice?: string | undefined;
  error?: string | undefined;
}

function Facts({ story }: { story: TransferStory }) {
  return (
    <dl class="facts panel">
      <dt>State</dt>
      <dd>
        <StateBadge state={story.state} />
      </dd>
      <dt>Amount</dt>
      <dd>
        <strong>{formatCents(story.amount_cents)}</strong>
      </dd>
      <dt>Account</dt>
      <dd>
        <a href={`/console/accounts/${encodeURIComponent(story.account_id)}`}>{story.account_id}</a>
      </dd>
      <dt>Pix key</dt>
      <dd>
        <code>{story.pix_key}</code> ({story.pix_key_type})
      </dd>
      <dt>Description</dt>
      <dd>{story.description ?? "—"}</dd>
      {story.scheduled_for === null ? null : (
        <>
          <dt>Scheduled for</dt>
          <dd>
            {story.scheduled_for}
            {story.state === "scheduled" ? ` (next run ${formatTime(story.next_check_at)}; nothing held until then)` : ""}
          </dd>
        </>
      )}
      {story.device_id === null ? null : (
        <>
          <dt>Device</dt>
          <dd>
            <code>{story.device_id}</code>
            {deviceNote(story.device_registered)}
          </dd>
        </>
      )}
      <dt>End-to-end id</dt>
      <dd>{story.end_to_end_id === null ? "—" : <code>{story.end_to_end_id}</code>}</dd>
      {story.returned_cents > 0 ? (
        <>
          <dt>Returned</dt>
          <dd>{`${formatCents(story.returned_cents)} in ${formatCount(story.returns.length, "return")}`}</dd>
        </>
      ) : null}
      <dt>Failure</dt>
      <dd>{story.failure_reason === null ? "—" : `${story.failure_reason}${story.failure_code ? ` (${story.failure_code})` : ""}`}</dd>
      <dt>Created</dt>
      <dd>{formatTime(story.created_at)}</dd>
      <dt>Updated</dt>
      <dd>{formatTime(story.updated_at)}</dd>
      <dt>Review deadline</dt>
      <dd>{formatTime(story.deadline_at)}</dd>
      <dt>Provider calls</dt>
      <dd>{providerCallsSummary(story)}</dd>
    </dl>
  );
}

/** What the new-device cap made of the transfer's device at its hold. */
function deviceNote(registered: boolean | null): string {
  if (registered === null) return " (not judged: nothing held)";
  return registered ? " (registered)" : " (not registered: capped as a new device)";
}

/**
 * Counted from the recorded calls listed under "Provider evidence", not from the saga's
 * counters: checks_made is the backoff counter, which a conclusive answer (the last check)
 * does not advance and a resend restarts, so it always came out short.
 */
function providerCallsSummary(story: TransferStory): string {
  const count = (kind: string): number => story.provider_calls.filter((call) => call.kind === kind).length;
  return `${formatCount(count("send"), "send")}, ${formatCount(count("status"), "status check")}`;
}

export function TransferPage({ story, events, csrfToken, notice, error }: TransferPageProps) {
  return (
    <Layout title={`Transfer ${story.id}`} csrfToken={csrfToken}>
      <Outcome notice={notice} error={error} />
      <Facts story={story} />
      {story.state === "needs_review" ? (
        <section aria-labelledby="resolve-heading">
          <h2 id="resolve-heading">Resolve</h2>
          <p>The saga could not learn whether this Pix was made. The hold of {formatCents(story.amount_cents)} stays until you decide.</p>
          <ResolveForm story={story} csrfToken={csrfToken} />
        </section>
      ) : null}
      {story.br_code === null ? null : (
        <section aria-labelledby="br-code-heading">
          <h2 id="br-code-heading">BR Code</h2>
          <BrCodeDetails story={{ ...story, br_code: story.br_code }} />
        </section>
      )}
      <section aria-labelledby="timeline-heading">
        <h2 id="timeline-heading">Timeline</h2>
        <Timeline history={story.history} />
      </section>
      <section aria-labelledby="provider-heading">
        <h2 id="provider-heading">Provider evidence</h2>
        <RecordAgainstProvider story={story} />
        <ProviderCalls calls={story.provider_calls} />
      </section>
      {story.state === "completed" ? (
        <section aria-labelledby="returns-heading">
          <h2 id="returns-heading">Returns</h2>
          <Returns story={story} />
        </section>
      ) : null}
      <section aria-labelledby="hold-heading">
        <h2 id="hold-heading">Hold and ledger entries</h2>
        <HoldAndEntries story={story} />
      </section>
      <section aria-labelledby="events-heading">
        <h2 id="events-heading">Outbound events</h2>
        <OutboundEvents events={events ?? []} />
      </section>
    </Layout>
  );
}
