// The home's three charts from the overview: transfers by outcome along time, completion time,
// provider calls and unknown answers along time. Each says in a sentence what it shows, for a
// screen reader and for anyone who wants the numbers, and its legend names every colour.
import { formatTickDuration, formatTickValue } from "../charts/scale.ts";
import { HorizontalBarChart, Legend, type Series, StackedBarChart } from "../charts/svg.tsx";
import { bucketed, bucketMinutesFor, clockLabel, type TimePoint } from "../charts/time-buckets.ts";
import type { Overview } from "../data/overview.ts";
import { formatCount, formatWindow } from "../format.ts";

type Outcome = "completed" | "compensated" | "needs_review" | "other";
type CallAnswer = "answered" | "unknown";

const outcomeSeries: Series<Outcome>[] = [
  { key: "completed", label: "completed" },
  { key: "compensated", label: "compensated" },
  { key: "needs_review", label: "in review" },
  { key: "other", label: "in flight or canceled" },
];

const callSeries: Series<CallAnswer>[] = [
  { key: "answered", label: "answered" },
  { key: "unknown", label: "unknown (timeout, 5xx, unreadable)" },
];

const perBucket = (bucketMinutes: number): string => (bucketMinutes === 1 ? "per minute" : `per ${bucketMinutes} minutes`);

const sumOf = (values: Record<string, number>): number => Object.values(values).reduce((sum, value) => sum + value, 0);

/** " Busiest: 14:32 UTC (4)." for the bucket with the most; nothing when every bucket is empty. */
function busiest<Key extends string>(points: readonly TimePoint<Key>[]): string {
  let best: TimePoint<Key> | undefined;
  for (const point of points) if (sumOf(point.values) > 0 && (best === undefined || sumOf(point.values) > sumOf(best.values))) best = point;
  return best === undefined ? "" : ` Busiest: ${clockLabel(best.atMs)} UTC (${sumOf(best.values)}).`;
}

function outcomePoints(overview: Overview): TimePoint<Outcome>[] {
  return overview.transfers.by_minute.map((m) => ({
    atMs: Date.parse(m.at),
    values: {
      completed: m.completed,
      compensated: m.compensated,
      needs_review: m.needs_review,
      other: m.created - m.completed - m.compensated - m.needs_review,
    },
  }));
}

function callPoints(overview: Overview): TimePoint<CallAnswer>[] {
  return overview.provider.by_minute.map((m) => ({
    atMs: Date.parse(m.at),
    values: { answered: m.calls - m.unknown, unknown: m.unknown },
  }));
}

const durationOrDash = (durationMs: number | null): string => (durationMs === null ? "—" : formatTickDuration(durationMs));

interface ChartProps {
  overview: Overview;
  minutes: number;
}

interface TimeFigureProps<Key extends string> {
  id: string;
  /** What is counted, before "per minute": "Transfers created". */
  counted: string;
  /** After it: ", by current state". */
  split: string;
  description: string;
  series: readonly Series<Key>[];
  perMinute: readonly TimePoint<Key>[];
  minutes: number;
  valueAxis: string;
  timeAxis: string;
  /** A line under the legend. */
  note?: string;
}

/** A stacked chart along the window, its caption and its legend; minutes summed into buckets for long windows. */
function TimeFigure<Key extends string>(props: TimeFigureProps<Key>) {
  const bucketMinutes = bucketMinutesFor(props.minutes);
  const points = bucketed(props.perMinute, bucketMinutes);
  const caption = `${props.counted} ${perBucket(bucketMinutes)}${props.split}`;
  return (
    <figure>
      <figcaption>{caption}</figcaption>
      <StackedBarChart
        id={props.id}
        title={`${caption}, in the last ${formatWindow(props.minutes)}`}
        description={`${props.description}${busiest(points)}`}
        series={props.series}
        points={points}
        bucketMinutes={bucketMinutes}
        valueAxis={props.valueAxis}
        timeAxis={props.timeAxis}
        format={formatTickValue}
      />
      <Legend series={props.series} />
      {props.note === undefined ? null : <p class="hint">{props.note}</p>}
    </figure>
  );
}

function CompletionFigure({ overview, minutes }: ChartProps) {
  const { completed } = overview.transfers;
  const c = overview.completion_ms;
  return (
    <figure>
      <figcaption>Completion time, created to completed</figcaption>
      <HorizontalBarChart
        id="chart-completion"
        title={`Completion time of the transfers created in the last ${formatWindow(minutes)} and completed`}
        description={`Over ${formatCount(completed, "completed transfer")}: p50 ${durationOrDash(c.p50)}, p95 ${durationOrDash(c.p95)}, p99 ${durationOrDash(c.p99)}.`}
        items={[
          { label: "p50", value: c.p50 },
          { label: "p95", value: c.p95 },
          { label: "p99", value: c.p99 },
        ]}
        valueAxis="Created to completed"
        format={formatTickDuration}
        empty="No transfer completed in this window"
      />
      <p class="hint">{`p50: half took less; p99: all but 1 in 100 took less. Over ${formatCount(completed, "completed transfer")}.`}</p>
    </figure>
  );
}

export function OverviewCharts({ overview, minutes }: ChartProps) {
  const t = overview.transfers;
  const p = overview.provider;
  const latency = `p50 ${durationOrDash(p.latency_ms.p50)}, p95 ${durationOrDash(p.latency_ms.p95)}`;
  return (
    <section aria-labelledby="charts-heading">
      <h2 id="charts-heading">Charts</h2>
      <p class="hint">Times on the axes are UTC. Hover over (or tap) a bar for its exact count.</p>
      <div class="charts">
        <TimeFigure
          id="chart-transfers"
          counted="Transfers created"
          split=", by current state"
          description={`${formatCount(t.created, "transfer")} created: ${t.completed} completed, ${t.compensated} compensated, ${t.needs_review} in review, ${t.in_flight + t.canceled} in flight or canceled.`}
          series={outcomeSeries}
          perMinute={outcomePoints(overview)}
          minutes={minutes}
          valueAxis="Transfers"
          timeAxis="Created at (UTC)"
        />
        <CompletionFigure overview={overview} minutes={minutes} />
        <TimeFigure
          id="chart-provider"
          counted="Provider calls"
          split=", answered and unknown"
          description={`${formatCount(p.calls, "call")}: ${p.answered} answered, ${p.unknown} unknown; latency ${latency}.`}
          series={callSeries}
          perMinute={callPoints(overview)}
          minutes={minutes}
          valueAxis="Calls"
          timeAxis="Called at (UTC)"
          note={`Latency ${latency}.`}
        />
      </div>
    </section>
  );
}
