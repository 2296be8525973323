// The console's charts as inline SVG, drawn on the server: no script, no image request, and
// they scale to the screen (a viewBox at 100% width). A screen reader gets the SVG as one image
// named by its title and described by a sentence of the figures; each bar carries its exact
// count as a tooltip; the legend is text beside a swatch, so no series is told by colour alone.
import type { Child } from "hono/jsx";
import { frame, horizontalBars, plot, stackedBars, type Tick } from "./layout.ts";
import { clockLabel, type TimePoint } from "./time-buckets.ts";

export interface Series<Key extends string> {
  key: Key;
  label: string;
}

interface ChartText {
  /** Unique on the page: the SVG's title and description are named from it. */
  id: string;
  title: string;
  /** What the chart shows, in a sentence for those who cannot see it. */
  description: string;
}

const baseline = plot.y + plot.height;

function ChartSvg({ id, title, description, children }: ChartText & { children?: Child }) {
  return (
    <svg class="chart" viewBox={`0 0 ${frame.width} ${frame.height}`} role="img" aria-labelledby={`${id}-title ${id}-desc`}>
      <title id={`${id}-title`}>{title}</title>
      <desc id={`${id}-desc`}>{description}</desc>
      {children}
    </svg>
  );
}

function ValueGridlines({ ticks }: { ticks: Tick[] }) {
  return (
    <g class="ticks">
      {ticks.map((tick) => (
        <>
          <line class="gridline" x1={plot.x} x2={plot.x + plot.width} y1={tick.at} y2={tick.at} />
          <text x={plot.x - 6} y={tick.at + 4} text-anchor="end">
            {tick.label}
          </text>
        </>
      ))}
    </g>
  );
}

function AxisTitles({ valueAxis, otherAxis }: { valueAxis: string; otherAxis: string }) {
  return (
    <>
      <text class="axis-title" x={plot.x + plot.width / 2} y={frame.height - 6} text-anchor="middle">
        {otherAxis}
      </text>
      <text class="axis-title" transform="rotate(-90)" x={-(plot.y + plot.height / 2)} y={14} text-anchor="middle">
        {valueAxis}
      </text>
    </>
  );
}

function NoData({ text }: { text: string }) {
  return (
    <text class="no-data" x={plot.x + plot.width / 2} y={plot.y + plot.height / 2} text-anchor="middle">
      {text}
    </text>
  );
}

export function Legend<Key extends string>({ series }: { series: readonly Series<Key>[] }) {
  return (
    <ul class="legend">
      {series.map((s) => (
        <li>
          <svg class="swatch" viewBox="0 0 10 10" aria-hidden="true">
            <rect class={`series-${s.key}`} width="10" height="10" />
          </svg>
          {s.label}
        </li>
      ))}
    </ul>
  );
}

export interface StackedBarChartProps<Key extends string> extends ChartText {
  series: readonly Series<Key>[];
  points: readonly TimePoint<Key>[];
  /** Each bar's span, for its tooltip ("14:05 UTC, 5 min"). */
  bucketMinutes: number;
  valueAxis: string;
  timeAxis: string;
  format: (value: number) => string;
}

/** Counts along time, one stacked bar per minute or bucket, the series bottom to top in the legend's order. */
export function StackedBarChart<Key extends string>(props: StackedBarChartProps<Key>) {
  const layout = stackedBars(
    props.points,
    props.series.map((s) => s.key),
    props.format,
  );
  const labelOf = new Map(props.series.map((s) => [s.key, s.label]));
  const span = props.bucketMinutes === 1 ? "" : `, ${props.bucketMinutes} min`;
  return (
    <ChartSvg id={props.id} title={props.title} description={props.description}>
      <ValueGridlines ticks={layout.valueTicks} />
      <g class="bars">
        {layout.bars.map((bar) =>
          bar.segments.map((segment) => (
            <rect class={`series-${segment.key}`} x={bar.x} y={segment.y} width={bar.width} height={segment.height}>
              <title>{`${clockLabel(bar.atMs)} UTC${span}: ${segment.value} ${labelOf.get(segment.key) ?? segment.key}`}</title>
            </rect>
          )),
        )}
      </g>
      <line class="axis" x1={plot.x} x2={plot.x + plot.width} y1={baseline} y2={baseline} />
      <line class="axis" x1={plot.x} x2={plot.x} y1={plot.y} y2={baseline} />
      <g class="ticks">
        {layout.timeTicks.map((tick) => (
          <text x={tick.at} y={baseline + 16} text-anchor="middle">
            {tick.label}
          </text>
        ))}
      </g>
      <AxisTitles valueAxis={props.valueAxis} otherAxis={props.timeAxis} />
      {props.points.length === 0 ? <NoData text="No data in this window" /> : null}
    </ChartSvg>
  );
}

/** Room a value label needs after its bar; a longer bar carries its label inside, at its end. */
const valueLabelRoom = 56;

function BarValue({ bar, text }: { bar: { y: number; height: number; width: number }; text: string }) {
  const inside = bar.width + valueLabelRoom > plot.width;
  const y = bar.y + bar.height / 2 + 5;
  return inside ? (
    <text class="bar-value inside" x={plot.x + bar.width - 6} y={y} text-anchor="end">
      {text}
    </text>
  ) : (
    <text class="bar-value" x={plot.x + bar.width + 6} y={y}>
      {text}
    </text>
  );
}

export interface HorizontalBarChartProps extends ChartText {
  /** One bar each, top to bottom; a null value is left out (nothing measured). */
  items: readonly { label: string; value: number | null }[];
  valueAxis: string;
  format: (value: number) => string;
  empty: string;
}

/** A few labelled values on one axis (the completion percentiles), each bar ending in its value. */
export function HorizontalBarChart(props: HorizontalBarChartProps) {
  const measured = props.items.flatMap((item) => (item.value === null ? [] : [{ label: item.label, value: item.value }]));
  const layout = horizontalBars(measured, props.format);
  return (
    <ChartSvg id={props.id} title={props.title} description={props.description}>
      <g class="ticks">
        {layout.valueTicks.map((tick, index) => (
          <>
            <line class="gridline" x1={tick.at} x2={tick.at} y1={plot.y} y2={baseline} />
            {/* The last label ends at the plot's edge instead of running past the drawing. */}
            <text x={tick.at} y={baseline + 16} text-anchor={index === layout.valueTicks.length - 1 ? "end" : "middle"}>
              {tick.label}
            </text>
          </>
        ))}
      </g>
      <g class="bars">
        {layout.bars.map((bar) => (
          <>
            <text x={plot.x - 6} y={bar.y + bar.height / 2 + 4} text-anchor="end">
              {bar.label}
            </text>
            <rect class="series-measure" x={plot.x} y={bar.y} width={bar.width} height={bar.height}>
              <title>{`${bar.label}: ${props.format(bar.value)}`}</title>
            </rect>
            <BarValue bar={bar} text={props.format(bar.value)} />
          </>
        ))}
      </g>
      <line class="axis" x1={plot.x} x2={plot.x} y1={plot.y} y2={baseline} />
      <line class="axis" x1={plot.x} x2={plot.x + plot.width} y1={baseline} y2={baseline} />
      <text class="axis-title" x={plot.x + plot.width / 2} y={frame.height - 6} text-anchor="middle">
        {props.valueAxis}
      </text>
      {measured.length === 0 ? <NoData text={props.empty} /> : null}
    </ChartSvg>
  );
}
