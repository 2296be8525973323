// Search: one box (transfer id, end_to_end_id or account id), its results, and a pointer to the
// review queue. The home (overview.tsx) carries the same box.
import type { SearchHit } from "../data/search.ts";
import { queryLengthMax } from "../data/search.ts";
import { formatCents } from "../format.ts";
import { Layout, Message, StateBadge } from "./layout.tsx";

export interface SearchPageProps {
  csrfToken: string;
  query: string;
  /** null before any search. */
  hits: SearchHit[] | null;
  queue: { count: number; totalCents: number };
}

function Hit({ hit }: { hit: SearchHit }) {
  if (hit.kind === "account") {
    return (
      <li>
        Account <a href={`/console/accounts/${encodeURIComponent(hit.id)}`}>{hit.id}</a>
      </li>
    );
  }
  return (
    <li>
      Transfer <a href={`/console/transfers/${hit.id}`}>{hit.id}</a> <StateBadge state={hit.state} />{" "}
      <span class="hint">(matched its {hit.matched === "id" ? "id" : "end_to_end_id"})</span>
    </li>
  );
}

/** The one search box: the search page's, and the home's under the overview. */
export function SearchForm({ query }: { query: string }) {
  return (
    <search>
      <form class="inline panel" method="get" action="/console/search">
        <div class="field">
          <label for="q">Transfer id, end_to_end_id or account id</label>
          <input id="q" name="q" type="search" value={query} required maxlength={queryLengthMax} autocomplete="off" />
        </div>
        <button type="submit">Search</button>
      </form>
    </search>
  );
}

export function SearchPage({ csrfToken, query, hits, queue }: SearchPageProps) {
  return (
    <Layout title="Search" csrfToken={csrfToken}>
      <SearchForm query={query} />
      {hits === null ? null : hits.length === 0 ? (
        <Message kind="warning">
          <p>Nothing matches “{query}”. Ids must be complete; search is exact.</p>
        </Message>
      ) : (
        <section aria-labelledby="results-heading">
          <h2 id="results-heading">Results</h2>
          <ul>
            {hits.map((hit) => (
              <Hit hit={hit} />
            ))}
          </ul>
        </section>
      )}
      <h2>Waiting for review</h2>
      <p>
        {queue.count === 0 ? (
          "No transfer waits for review."
        ) : (
          <>
            <a href="/console/queue">{`${queue.count} transfer(s) in needs_review`}</a>, freezing {formatCents(queue.totalCents)}.
          </>
        )}
      </p>
    </Layout>
  );
}
