// I11, the outbox (CONTRACT §6): every transfer's events are exactly its history. Its
// transfer.updated events, by sequence, announce its history rows one for one, in order, each
// showing that row's state; sequences run 1, 2, 3... with no gap or repeat.
import type { PoolClient } from "@neondatabase/serverless";

export interface EventViolation {
  subject: string;
  detail: string;
}

export async function eventChecks(db: PoolClient, scope: readonly string[] | null): Promise<EventViolation[]> {
  const { rows } = await db.query<{ id: string; history: string[]; announced: string[]; states: string[]; sequences: number[] }>(
    `SELECT t.id,
            ARRAY(SELECT h.id::text || ':' || h.to_state FROM transfer_history h WHERE h.transfer_id = t.id ORDER BY h.id) AS history,
            ARRAY(SELECT e.history_id::text || ':' || h.to_state FROM transfer_events e JOIN transfer_history h ON h.id = e.history_id
                   WHERE e.transfer_id = t.id AND e.type = 'transfer.updated' ORDER BY e.sequence) AS announced,
            ARRAY(SELECT e.history_id::text || ':' || (e.data->>'state') FROM transfer_events e
                   WHERE e.transfer_id = t.id AND e.type = 'transfer.updated' ORDER BY e.sequence) AS states,
            ARRAY(SELECT e.sequence FROM transfer_events e WHERE e.transfer_id = t.id ORDER BY e.sequence) AS sequences
       FROM transfers t WHERE ($1::text[] IS NULL OR t.account_id = ANY($1))`,
    [scope],
  );
  const found: EventViolation[] = [];
  for (const row of rows) {
    if (row.history.join() !== row.announced.join()) {
      found.push({ subject: row.id, detail: `history ${row.history.join(" ")} but events announce ${row.announced.join(" ")}` });
    }
    if (row.states.join() !== row.announced.join()) {
      found.push({ subject: row.id, detail: `events show states ${row.states.join(" ")} for history ${row.announced.join(" ")}` });
    }
    if (row.sequences.some((sequence, i) => sequence !== i + 1)) {
      found.push({ subject: row.id, detail: `event sequences ${row.sequences.join(",")} are not 1..${row.sequences.length}` });
    }
  }
  return found;
}
