// The review queue and the scheduled list show a bounded page of a set whose count covers all of
// it: the caption says when only the first rows are shown, and an empty set gets its sentence.
import type { Child } from "hono/jsx";
import type { BoundedList } from "../data/bounded-list.ts";
import { type Column, DataTable } from "./table.tsx";

export interface BoundedTableProps<Row> {
  list: BoundedList<Row>;
  caption: string;
  /** What stands instead of the table when the whole set is empty. */
  empty: string;
  columns: Column<Row>[];
  foot?: Child;
}

export function BoundedTable<Row>({ list, caption, empty, columns, foot }: BoundedTableProps<Row>) {
  if (list.count === 0) return <p>{empty}</p>;
  const shown = list.items.length < list.count ? ` (the first ${list.items.length} of ${list.count})` : "";
  return <DataTable caption={`${caption}${shown}`} columns={columns} rows={list.items} foot={foot} />;
}
