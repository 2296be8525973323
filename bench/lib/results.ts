// The bench's output: one row per metric, with its target when it has one. A row without a
// target is reported for context (absolute rates drift between machines; ratios do not).

export interface MetricRow {
  metric: string;
  value: number;
  unit: string;
  /** ">= 0.8", "<= 3", or null when the number is only reported. */
  target: string | null;
  meets: boolean | null;
}

export function reported(metric: string, value: number, unit: string): MetricRow {
  return { metric, value, unit, target: null, meets: null };
}

export function atLeast(metric: string, value: number, unit: string, minimum: number): MetricRow {
  return { metric, value, unit, target: `>= ${minimum}`, meets: value >= minimum };
}

export function atMost(metric: string, value: number, unit: string, maximum: number): MetricRow {
  return { metric, value, unit, target: `<= ${maximum}`, meets: value <= maximum };
}

/** Rounds for display and JSON: 3 significant digits is all a shared machine can promise. */
export function rounded(value: number): number {
  if (value === 0 || !Number.isFinite(value)) return value;
  const digits = Math.max(0, 2 - Math.floor(Math.log10(Math.abs(value))));
  return Number(value.toFixed(Math.min(digits, 4)));
}

export function formatTable(rows: readonly MetricRow[]): string {
  const header = ["metric", "value", "unit", "target", "meets"];
  const cells = rows.map((row) => [
    row.metric,
    String(rounded(row.value)),
    row.unit,
    row.target ?? "",
    row.meets === null ? "" : row.meets ? "yes" : "NO",
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((line) => (line[column] ?? "").length)));
  const render = (line: string[]): string => `| ${line.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(" | ")} |`;
  const rule = `|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`;
  return [render(header), rule, ...cells.map(render)].join("\n");
}
