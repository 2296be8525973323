// Rows written per table (pg_stat_user_tables of the measured database), so a cost says which
// facts it is made of: inserts, updates (and how many were HOT: no index touched), deletes.
// Read over plain TCP from a connection of its own; reading the counters writes nothing.
import pg from "pg";

export interface TableWrites {
  inserted: number;
  updated: number;
  /** Updates that touched no index (heap-only tuples): the cheap kind. */
  hotUpdated: number;
  deleted: number;
}

export type WritesByTable = Map<string, TableWrites>;

export interface TableWritesReader {
  read(): Promise<WritesByTable>;
  close(): Promise<void>;
}

export async function openTableWrites(databaseUrl: string): Promise<TableWritesReader> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  return {
    async read() {
      const { rows } = await client.query<{ name: string; ins: string; upd: string; hot: string; del: string }>(
        `SELECT relname AS name, n_tup_ins AS ins, n_tup_upd AS upd, n_tup_hot_upd AS hot, n_tup_del AS del
           FROM pg_stat_user_tables`,
      );
      return new Map(
        rows.map((r) => [r.name, { inserted: Number(r.ins), updated: Number(r.upd), hotUpdated: Number(r.hot), deleted: Number(r.del) }]),
      );
    },
    close: () => client.end(),
  };
}

/** What each table gained between two reads, tables with no write left out, most written first. */
export function writesBetween(before: WritesByTable, after: WritesByTable): WritesByTable {
  const gained: [string, TableWrites][] = [];
  for (const [name, now] of after) {
    const was = before.get(name) ?? { inserted: 0, updated: 0, hotUpdated: 0, deleted: 0 };
    const delta = {
      inserted: now.inserted - was.inserted,
      updated: now.updated - was.updated,
      hotUpdated: now.hotUpdated - was.hotUpdated,
      deleted: now.deleted - was.deleted,
    };
    if (delta.inserted + delta.updated + delta.deleted > 0) gained.push([name, delta]);
  }
  const total = (w: TableWrites): number => w.inserted + w.updated + w.deleted;
  return new Map(gained.sort((a, b) => total(b[1]) - total(a[1])));
}

/** One log line a table: its writes per unit of work. */
export function describeTableWrites(writes: WritesByTable, units: number, unit: string): string[] {
  const per = (n: number): string => (n / units).toFixed(2);
  return [...writes].map(
    ([name, w]) =>
      `${name}: ${per(w.inserted)} inserted, ${per(w.updated)} updated (${per(w.hotUpdated)} HOT), ${per(w.deleted)} deleted per ${unit}`,
  );
}
