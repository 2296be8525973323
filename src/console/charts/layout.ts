// Where everything of a chart goes, in the SVG's own units: pure arithmetic, so the drawing
// (svg.tsx) only places what this computed and the unit tests can check every number.
import { valueTicks } from "./scale.ts";
import { clockLabel, labelledIndexes, type TimePoint } from "./time-buckets.ts";

/** The drawing's box (its viewBox) and the room kept around the plot for the axes' labels. */
export const frame = { width: 400, height: 230, left: 56, right: 10, top: 12, bottom: 46 } as const;
export const plot = {
  x: frame.left,
  y: frame.top,
  width: frame.width - frame.left - frame.right,
  height: frame.height - frame.top - frame.bottom,
} as const;

export interface Tick {
  /** Where it sits along its axis, in SVG units. */
  at: number;
  label: string;
}

export interface Segment<Key extends string> {
  key: Key;
  value: number;
  y: number;
  height: number;
}

export interface Bar<Key extends string> {
  atMs: number;
  x: number;
  width: number;
  total: number;
  /** Bottom to top, in the order of the chart's keys; zero values are left out. */
  segments: Segment<Key>[];
}

export interface StackedLayout<Key extends string> {
  axisMax: number;
  valueTicks: Tick[];
  timeTicks: Tick[];
  bars: Bar<Key>[];
}

/** A value's height on a 0..axisMax axis of `length` units. */
export function scaled(value: number, axisMax: number, length: number): number {
  return axisMax > 0 ? (value / axisMax) * length : 0;
}

/** Vertical bars along time, each the stack of its keys' counts; `format` writes the value ticks. */
export function stackedBars<Key extends string>(
  points: readonly TimePoint<Key>[],
  keys: readonly Key[],
  format: (value: number) => string,
): StackedLayout<Key> {
  const totals = points.map((p) => keys.reduce((sum, key) => sum + Math.max(0, p.values[key]), 0));
  const ticks = valueTicks(Math.max(0, ...totals));
  const axisMax = ticks[ticks.length - 1] ?? 1;
  const slot = points.length === 0 ? plot.width : plot.width / points.length;
  // A gap between bars while there is room for one; 60 bars on a phone touch.
  const gap = slot >= 6 ? Math.min(slot * 0.2, 4) : 0;
  const baseline = plot.y + plot.height;
  const bars = points.map((point, index): Bar<Key> => {
    let top = baseline;
    const segments: Segment<Key>[] = [];
    for (const key of keys) {
      const value = Math.max(0, point.values[key]);
      if (value === 0) continue;
      const height = scaled(value, axisMax, plot.height);
      top -= height;
      segments.push({ key, value, y: top, height });
    }
    return { atMs: point.atMs, x: plot.x + index * slot + gap / 2, width: slot - gap, total: totals[index] ?? 0, segments };
  });
  return {
    axisMax,
    valueTicks: ticks.map((value) => ({ at: baseline - scaled(value, axisMax, plot.height), label: format(value) })),
    timeTicks: labelledIndexes(points.length).map((index) => ({
      at: plot.x + (index + 0.5) * slot,
      label: clockLabel(points[index]?.atMs ?? 0),
    })),
    bars,
  };
}

export interface HorizontalBar {
  label: string;
  value: number;
  y: number;
  height: number;
  width: number;
}

export interface HorizontalLayout {
  axisMax: number;
  valueTicks: Tick[];
  bars: HorizontalBar[];
}

/** One horizontal bar per labelled value (the completion percentiles), on one shared axis. */
export function horizontalBars(items: readonly { label: string; value: number }[], format: (value: number) => string): HorizontalLayout {
  const ticks = valueTicks(Math.max(0, ...items.map((item) => item.value)));
  const axisMax = ticks[ticks.length - 1] ?? 1;
  const slot = items.length === 0 ? plot.height : plot.height / items.length;
  const thickness = slot * 0.6;
  return {
    axisMax,
    valueTicks: ticks.map((value) => ({ at: plot.x + scaled(value, axisMax, plot.width), label: format(value) })),
    bars: items.map((item, index) => ({
      label: item.label,
      value: item.value,
      y: plot.y + index * slot + (slot - thickness) / 2,
      height: thickness,
      width: scaled(Math.max(0, item.value), axisMax, plot.width),
    })),
  };
}
