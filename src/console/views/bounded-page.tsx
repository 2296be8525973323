// The review queue and the scheduled list are pages of a bounded set whose count and total cover
// all of it: two figures for the whole set, then the first rows, with a caption that says when
// only the first are shown and a sentence instead of an empty table.
import type { Child } from "hono/jsx";
import type { BoundedList } from "../data/bounded-list.ts";
import { formatCents } from "../format.ts";
import { Figure } from "./figure.tsx";
import { Layout } from "./layout.tsx";
import { type Column, DataTable } from "./table.tsx";

export interface BoundedPageProps<Row> {
  title: string;
  csrfToken: string;
  list: BoundedList<Row>;
  /** The figures' labels: the set's count, then its total in cents. */
  countLabel: string;
  totalLabel: string;
  caption: string;
  /** What stands instead of the table when the whole set is empty. */
  empty: string;
  columns: Column<Row>[];
  foot?: Child;
}

export function BoundedPage<Row>(props: BoundedPageProps<Row>) {
  const { list } = props;
  const shown = list.items.length < list.count ? ` (the first ${list.items.length} of ${list.count})` : "";
  return (
    <Layout title={props.title} csrfToken={props.csrfToken}>
      <div class="figures">
        <Figure label={props.countLabel} value={list.count} />
        <Figure label={props.totalLabel} value={formatCents(list.totalCents)} />
      </div>
      {list.count === 0 ? (
        <p>{props.empty}</p>
      ) : (
        <DataTable caption={`${props.caption}${shown}`} columns={props.columns} rows={list.items} foot={props.foot} />
      )}
    </Layout>
  );
}
