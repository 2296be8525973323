// One line of a facts list (`<dl class="facts">`) whose value is an identifier or code: shown
// in monospace, as it must be quoted or pasted elsewhere.
export function CodeFact({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>
        <code>{value}</code>
      </dd>
    </>
  );
}
