// Counts database round trips at the driver: every query() is one round trip (the ledger and
// saga store send each operation as a single statement).
import type { Queryable } from "../../src/db/queryable.ts";

export interface CountingDb extends Queryable {
  readonly roundTrips: number;
}

export function countingDb(db: Queryable): CountingDb {
  let roundTrips = 0;
  return {
    get roundTrips() {
      return roundTrips;
    },
    query<Row extends Record<string, unknown>>(text: string, values?: unknown[]) {
      roundTrips++;
      return db.query<Row>(text, values);
    },
  };
}
