// The headline numbers above a page's tables (balances, counts, totals) share one look.
export function Figure({ label, value }: { label: string; value: string | number }) {
  return (
    <div class="figure">
      <span class="label">{label}</span>
      <span class="value">{value}</span>
    </div>
  );
}
