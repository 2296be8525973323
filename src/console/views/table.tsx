// Every list in the console is one table shape: a column names its header and the data-label of
// its cells from the same label, so the narrow-screen card layout always says what each cell is.
import type { Child } from "hono/jsx";

/** One column: its header, whether it holds figures (right-aligned), and what each row shows in it. */
export interface Column<Row> {
  label: string;
  num?: boolean;
  cell: (row: Row) => Child;
}

export interface DataTableProps<Row> {
  caption: Child;
  columns: Column<Row>[];
  rows: Row[];
  /** The sentence that stands instead of the table when there is no row; without it the table stands empty. */
  empty?: string;
  /** The footer's cells, such as a total. */
  foot?: Child;
}

export function DataTable<Row>({ caption, columns, rows, empty, foot }: DataTableProps<Row>) {
  if (empty !== undefined && rows.length === 0) return <p>{empty}</p>;
  return (
    <div class="table-wrap">
      <table class="cards">
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th scope="col" class={column.num ? "num" : undefined}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr>
              {columns.map((column) => (
                <td data-label={column.label} class={column.num ? "num" : undefined}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
        {foot === undefined ? null : (
          <tfoot>
            <tr>{foot}</tr>
          </tfoot>
        )}
      </table>
    </div>
  );
}
