// The console's home: is everything all right right now? The window's figures first, each a
// link to the list behind it; then the charts (overview-charts.tsx); then the search box. All
// of it from one read of what GET /ops/overview answers (CONTRACT §5), refreshed on reload.
import { failureReasons } from "../../saga/states.ts";
import type { Overview } from "../data/overview.ts";
import { formatDuration, formatTime, formatWindow } from "../format.ts";
import { Figure } from "./figure.tsx";
import { Layout } from "./layout.tsx";
import { OverviewCharts } from "./overview-charts.tsx";
import { SearchForm } from "./search.tsx";

/** The windows the selector offers: a quarter of an hour, an hour, a day. */
export const overviewWindows = [15, 60, 1_440] as const;

export interface HomePageProps {
  overview: Overview;
  minutes: number;
  csrfToken: string;
}

/** The list of the window's transfers behind a figure, filtered as the figure counts them. */
export function windowListHref(minutes: number, filter: { state?: string; reason?: string } = {}): string {
  const query = new URLSearchParams({ minutes: String(minutes), ...filter });
  return `/console/transfers?${query.toString()}`;
}

function WindowSelector({ minutes }: { minutes: number }) {
  return (
    <nav class="window-selector" aria-label="Window">
      <span class="hint">Window:</span>
      {overviewWindows.map((window) => (
        <a href={`/console?minutes=${window}`} aria-current={window === minutes ? "page" : undefined}>
          {`Last ${formatWindow(window)}`}
        </a>
      ))}
    </nav>
  );
}

/** "waiting 3 min" from an instant to the overview's now; undefined when nothing waits. */
function waitingSince(sinceAt: string | null, nowAt: string, words: string): string | undefined {
  return sinceAt === null ? undefined : `${words} ${formatDuration(Date.parse(nowAt) - Date.parse(sinceAt))}`;
}

function TransferFigures({ overview, minutes }: { overview: Overview; minutes: number }) {
  const t = overview.transfers;
  return (
    <>
      <div class="figures">
        <Figure label="Sent" value={t.created} href={windowListHref(minutes)} detail="every transfer created" />
        <Figure label="Completed" value={t.completed} href={windowListHref(minutes, { state: "completed" })} />
        <Figure label="Compensated" value={t.compensated} href={windowListHref(minutes, { state: "compensated" })} />
        <Figure label="In review" value={t.needs_review} href={windowListHref(minutes, { state: "needs_review" })} />
        <Figure label="In flight" value={t.in_flight} href={windowListHref(minutes, { state: "in_flight" })} />
        <Figure label="Canceled" value={t.canceled} href={windowListHref(minutes, { state: "canceled" })} />
      </div>
      <section class="panel" aria-labelledby="by-reason-heading">
        <h3 id="by-reason-heading">Compensated by reason</h3>
        <ul class="reasons">
          {failureReasons.map((reason) => (
            <li>
              <a href={windowListHref(minutes, { state: "compensated", reason })}>
                <code>{reason}</code>
              </a>
              <span class="count">{t.compensated_by_reason[reason]}</span>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}

function QueueFigures({ overview }: { overview: Overview }) {
  const { review, events, contestations } = overview;
  const deadline = contestations.nearest_deadline_at;
  return (
    <div class="figures">
      <Figure
        label="Review queue"
        value={review.needs_review}
        href="/console/queue"
        detail={waitingSince(review.oldest_at, overview.to, "oldest waiting")}
      />
      <Figure
        label="Undelivered events"
        value={events.undelivered}
        href="/console/events"
        detail={waitingSince(events.oldest_undelivered_at, overview.to, "oldest waiting")}
      />
      <Figure
        label="Open contestations"
        value={contestations.open}
        href="/console/contestations"
        detail={deadline === null ? undefined : `nearest deadline ${formatTime(deadline)}`}
      />
    </div>
  );
}

/** The degraded-PSP alert's state, as the overview has it: said first, since customers feel it first. */
function ProviderStatus({ overview }: { overview: Overview }) {
  const since = overview.provider.degraded_since;
  if (!overview.provider.degraded || since === null) {
    return <p class="hint">The PSP is answering: no degraded spell now.</p>;
  }
  return (
    <p class="warning" role="status">
      {`The PSP is degraded since ${formatTime(since)} (${waitingSince(since, overview.to, "for")}): over 5 minutes, at least 10 provider calls were made and more than half gave no usable answer (timeouts, 5xx, unreadable). Transfers wait with their holds kept; the provider chart below shows the calls.`}
    </p>
  );
}

export function HomePage({ overview, minutes, csrfToken }: HomePageProps) {
  return (
    <Layout title="Overview" csrfToken={csrfToken}>
      <WindowSelector minutes={minutes} />
      <p class="lead">
        {`Transfers created and provider calls made from ${formatTime(overview.from)} to ${formatTime(overview.to)} (the last ${formatWindow(minutes)}); the queues as of now. Reload for fresh figures.`}
      </p>
      <ProviderStatus overview={overview} />
      <section aria-labelledby="window-heading">
        <h2 id="window-heading">{`Transfers in the last ${formatWindow(minutes)}`}</h2>
        <TransferFigures overview={overview} minutes={minutes} />
      </section>
      <section aria-labelledby="now-heading">
        <h2 id="now-heading">Waiting now</h2>
        <QueueFigures overview={overview} />
      </section>
      <OverviewCharts overview={overview} minutes={minutes} />
      <section aria-labelledby="search-heading">
        <h2 id="search-heading">Find a transfer or an account</h2>
        <SearchForm query="" />
      </section>
    </Layout>
  );
}
