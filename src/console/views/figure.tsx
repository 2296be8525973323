// The headline numbers above a page's tables (balances, counts, totals) share one look. A figure
// with `href` is a link to the list behind it, the whole card its target; `detail` is the line
// under the number (an age, a deadline).
export interface FigureProps {
  label: string;
  value: string | number;
  href?: string;
  detail?: string | undefined;
}

export function Figure({ label, value, href, detail }: FigureProps) {
  const content = (
    <>
      <span class="label">{label}</span>
      <span class="value">{value}</span>
      {detail === undefined ? null : <span class="detail">{detail}</span>}
    </>
  );
  return href === undefined ? (
    <div class="figure">{content}</div>
  ) : (
    <a class="figure" href={href}>
      {content}
    </a>
  );
}
