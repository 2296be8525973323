// The one way the console sets our record beside the provider's: a table of fields, the ones that
// differ marked with words ("≠ differs") as well as a colour, the count in the caption, and the
// raw record one click away. Used for reconciliation divergences, paid-after-release cases and a
// transfer's provider evidence.
import { type ComparedField, differingCount } from "../compare/fields.ts";
import { formatCount } from "../format.ts";

export interface ComparisonProps {
  /** What is compared: "Our record against the provider's statement". */
  caption: string;
  fields: readonly ComparedField[];
  /** The records as received, shown as JSON when asked for. */
  raw: unknown;
  rawLabel: string;
  theirsLabel?: string;
}

function verdict(fields: readonly ComparedField[]): string {
  const differing = differingCount(fields);
  return differing === 0 ? "they agree" : `${formatCount(differing, "field")} ${differing === 1 ? "differs" : "differ"}`;
}

export function Comparison({ caption, fields, raw, rawLabel, theirsLabel = "The provider's" }: ComparisonProps) {
  return (
    <div class="comparison">
      <div class="table-wrap">
        <table class="cards compare">
          <caption>{`${caption}: ${verdict(fields)}`}</caption>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Ours</th>
              <th scope="col">{theirsLabel}</th>
            </tr>
          </thead>
          <tbody>
            {fields.map((field) => (
              <tr class={field.differs ? "differs" : undefined}>
                <th scope="row">
                  {field.label}
                  {field.differs ? <strong class="marker"> ≠ differs</strong> : null}
                </th>
                <td data-label="Ours">
                  <code>{field.ours}</code>
                </td>
                <td data-label={theirsLabel}>
                  {field.theirs === null ? <span class="hint">not stated</span> : <code>{field.theirs}</code>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <details>
        <summary>{rawLabel}</summary>
        <pre>{JSON.stringify(raw, null, 2)}</pre>
      </details>
    </div>
  );
}
