// The one shape of database access the ledger and the saga store need: a parameterised query.
// Both a Pool and a pooled client satisfy it; tests wrap it to count round trips.
export interface Queryable {
  query<Row extends Record<string, unknown>>(text: string, values?: unknown[]): Promise<{ rows: Row[] }>;
}
