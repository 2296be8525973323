// The charts' geometry and their SVG (components called as functions: this file is plain .ts): bars inside the plot and to scale, axes labelled, a name
// and a description for screen readers, and a chart that still says something with no data.
import { describe, expect, it } from "vitest";
import { horizontalBars, plot, stackedBars } from "../../src/console/charts/layout.ts";
import { formatTickDuration, formatTickValue } from "../../src/console/charts/scale.ts";
import { HorizontalBarChart, StackedBarChart } from "../../src/console/charts/svg.tsx";
import type { TimePoint } from "../../src/console/charts/time-buckets.ts";

type Key = "ok" | "bad";
const keys: Key[] = ["ok", "bad"];
const start = Date.parse("2026-12-02T14:00:00Z");
const points = (values: [number, number][]): TimePoint<Key>[] =>
  values.map(([ok, bad], i) => ({ atMs: start + i * 60_000, values: { ok, bad } }));
const baseline = plot.y + plot.height;
const close = (a: number, b: number) => expect(a).toBeCloseTo(b, 6);

describe("stacked bars", () => {
  it("stacks each bar's series bottom to top, to scale, inside the plot", () => {
    const layout = stackedBars(
      points([
        [3, 1],
        [0, 2],
        [8, 0],
      ]),
      keys,
      formatTickValue,
    );
    expect(layout.axisMax).toBe(8);
    expect(layout.valueTicks.map((t) => t.label)).toEqual(["0", "2", "4", "6", "8"]);
    close(layout.valueTicks[0]?.at ?? 0, baseline);
    close(layout.valueTicks.at(-1)?.at ?? 0, plot.y);
    const [first, second, third] = layout.bars;
    expect(first?.segments.map((s) => [s.key, s.value])).toEqual([
      ["ok", 3],
      ["bad", 1],
    ]);
    close(first?.segments[0]?.height ?? 0, (3 / 8) * plot.height);
    close((first?.segments[0]?.y ?? 0) + (first?.segments[0]?.height ?? 0), baseline);
    close((first?.segments[1]?.y ?? 0) + (first?.segments[1]?.height ?? 0), first?.segments[0]?.y ?? 0);
    expect(second?.segments.map((s) => s.key)).toEqual(["bad"]);
    close(third?.segments[0]?.y ?? 0, plot.y);
    for (const bar of layout.bars) {
      expect(bar.x).toBeGreaterThanOrEqual(plot.x);
      expect(bar.x + bar.width).toBeLessThanOrEqual(plot.x + plot.width + 1e-9);
    }
    expect(layout.timeTicks.map((t) => t.label)).toEqual(["14:00", "14:01", "14:02"]);
  });

  it("one point fills the plot's width; all zeros draw no bar on a 0 to 1 axis", () => {
    const one = stackedBars(points([[5, 0]]), keys, formatTickValue);
    expect(one.bars).toHaveLength(1);
    expect(one.bars[0]?.width).toBeGreaterThan(plot.width * 0.9);
    const zeros = stackedBars(
      points([
        [0, 0],
        [0, 0],
      ]),
      keys,
      formatTickValue,
    );
    expect(zeros.axisMax).toBe(1);
    expect(zeros.bars.flatMap((b) => b.segments)).toEqual([]);
    const empty = stackedBars([], keys, formatTickValue);
    expect(empty.bars).toEqual([]);
    expect(empty.timeTicks).toEqual([]);
    expect(empty.valueTicks.map((t) => t.label)).toEqual(["0", "1"]);
  });

  it("huge counts stay on the plot with short labels", () => {
    const layout = stackedBars(
      points([
        [4e12, 5e11],
        [1, 0],
      ]),
      keys,
      formatTickValue,
    );
    expect(layout.valueTicks.map((t) => t.label)).toEqual(["0", "2T", "4T", "6T"]);
    for (const segment of layout.bars.flatMap((b) => b.segments)) {
      expect(segment.y).toBeGreaterThanOrEqual(plot.y - 1e-9);
      expect(segment.y + segment.height).toBeLessThanOrEqual(baseline + 1e-9);
    }
  });

  it("a day's 1,440 minutes make 60 bars at most once bucketed, each wide enough to see", () => {
    const layout = stackedBars(points(Array.from({ length: 48 }, () => [1, 1])), keys, formatTickValue);
    expect(layout.bars.every((bar) => bar.width > 5)).toBe(true);
    expect(layout.timeTicks.length).toBeLessThanOrEqual(5);
  });
});

describe("horizontal bars", () => {
  it("draws each value to scale on one shared axis", () => {
    const layout = horizontalBars(
      [
        { label: "p50", value: 800 },
        { label: "p99", value: 3_000 },
      ],
      formatTickDuration,
    );
    expect(layout.axisMax).toBe(3_000);
    expect(layout.valueTicks.map((t) => t.label)).toEqual(["0 ms", "1 s", "2 s", "3 s"]);
    close(layout.bars[0]?.width ?? 0, (800 / 3_000) * plot.width);
    close(layout.bars[1]?.width ?? 0, plot.width);
    expect(layout.bars[0]?.y).toBeLessThan(layout.bars[1]?.y ?? 0);
  });
});

describe("chart SVG", () => {
  const series = [
    { key: "ok", label: "completed" },
    { key: "bad", label: "compensated" },
  ] as const;

  function stacked(data: TimePoint<Key>[]): string {
    return String(
      StackedBarChart({
        id: "t",
        title: "Transfers per minute",
        description: "3 created",
        series,
        points: data,
        bucketMinutes: 1,
        valueAxis: "Transfers",
        timeAxis: "Minute created (UTC)",
        format: formatTickValue,
      }),
    );
  }

  it("is one image for screen readers, named and described, with both axes labelled and a tooltip per bar", () => {
    const svg = stacked(points([[2, 1]]));
    expect(svg).toMatch(/^<svg class="chart" viewBox="0 0 \d+ \d+" role="img" aria-labelledby="t-title t-desc">/);
    expect(svg).toContain('<title id="t-title">Transfers per minute</title>');
    expect(svg).toContain('<desc id="t-desc">3 created</desc>');
    expect(svg).toContain(">Minute created (UTC)</text>");
    expect(svg).toContain(">Transfers</text>");
    expect(svg).toContain(">14:00</text>");
    expect(svg).toContain("<title>14:00 UTC: 2 completed</title>");
    expect(svg).toContain('class="series-bad"');
    expect(svg).not.toContain("No data");
    expect(svg).not.toMatch(/<script|style=|width="100%"/);
  });

  it("says so when the window holds nothing", () => {
    const svg = stacked([]);
    expect(svg).toContain(">No data in this window</text>");
    expect(svg).not.toContain("<rect");
  });

  it("leaves out a percentile nothing measured, and says so when none was", () => {
    const chart = (p50: number | null, p99: number | null) =>
      String(
        HorizontalBarChart({
          id: "c",
          title: "Completion time",
          description: "d",
          items: [
            { label: "p50", value: p50 },
            { label: "p99", value: p99 },
          ],
          valueAxis: "Created to completed",
          format: formatTickDuration,
          empty: "No transfer completed in this window",
        }),
      );
    const some = chart(1_200, 2_500);
    expect(some).toContain(">p50</text>");
    expect(some).toContain(">1.2 s</text>");
    // The longest bar carries its value inside its end, and the axis' last label ends at the edge: nothing drawn past the SVG.
    expect(some).toMatch(/<text class="bar-value inside" x="[\d.]+" y="[\d.]+" text-anchor="end">2.5 s<\/text>/);
    expect(some).toMatch(/<text class="bar-value" x="[\d.]+" y="[\d.]+">1.2 s<\/text>/);
    expect(some).toMatch(/text-anchor="end">3 s<\/text>/);
    expect(some).not.toContain("No transfer completed");
    const none = chart(null, null);
    expect(none).toContain(">No transfer completed in this window</text>");
    expect(none).not.toContain(">p50</text>");
  });
});
