// I12: a transfer's returned_cents is within its amount and equals the returns listed; returns
// only on completed transfers; every return has exactly one balanced pair of entries (the
// customer credited, Pix clearing debited) and one transfer.returned event.
import type { PoolClient } from "@neondatabase/serverless";
import { type Finding, finding } from "./invariant-finding.ts";

export async function returnChecks(db: PoolClient, scope: readonly string[] | null): Promise<Finding[]> {
  const found: Finding[] = [];
  const sums = await db.query<{ id: string; state: string; amount: string; returned: string; listed: string; n: string }>(
    `SELECT t.id::text, t.state, t.amount_cents::text AS amount, t.returned_cents::text AS returned,
            coalesce(sum(r.amount_cents), 0)::text AS listed, count(r.id)::text AS n
       FROM transfers t LEFT JOIN transfer_returns r ON r.transfer_id = t.id
      WHERE ($1::text[] IS NULL OR t.account_id = ANY($1))
      GROUP BY t.id
     HAVING t.returned_cents < 0 OR t.returned_cents > t.amount_cents OR t.returned_cents <> coalesce(sum(r.amount_cents), 0)
         OR (count(r.id) > 0 AND t.state <> 'completed')
         OR count(r.id) <> (SELECT count(*) FROM transfer_events e WHERE e.transfer_id = t.id AND e.type = 'transfer.returned')`,
    [scope],
  );
  for (const t of sums.rows) {
    found.push(
      finding(t.id, `${t.state}, amount ${t.amount}, returned_cents ${t.returned}, ${t.n} return(s) listed summing to ${t.listed}`),
    );
  }
  // Exactly one ledger transaction per return (its op key), holding exactly the pair: the
  // transfer's account +amount, Pix clearing -amount.
  const pairs = await db.query<{ id: string; transactions: string; entries: string; customer: string | null; clearing: string | null }>(
    `SELECT r.id, (SELECT count(*) FROM ledger_transactions lt WHERE lt.op_key = 'return:' || r.id)::text AS transactions,
            count(e.id)::text AS entries,
            sum(e.amount_cents) FILTER (WHERE e.account_id = t.account_id)::text AS customer,
            sum(e.amount_cents) FILTER (WHERE e.account_id = 'house:pix_clearing')::text AS clearing
       FROM transfer_returns r JOIN transfers t ON t.id = r.transfer_id
       JOIN ledger_transactions lt ON lt.id = r.ledger_transaction_id
       LEFT JOIN entries e ON e.transaction_id = lt.id
      WHERE ($1::text[] IS NULL OR t.account_id = ANY($1))
      GROUP BY r.id, r.amount_cents, lt.op_key, lt.kind
     HAVING lt.kind <> 'return' OR lt.op_key <> 'return:' || r.id
         OR (SELECT count(*) FROM ledger_transactions lt2 WHERE lt2.op_key = 'return:' || r.id) <> 1
         OR count(e.id) <> 2
         OR coalesce(sum(e.amount_cents) FILTER (WHERE e.account_id = t.account_id), 0) <> r.amount_cents
         OR coalesce(sum(e.amount_cents) FILTER (WHERE e.account_id = 'house:pix_clearing'), 0) <> -r.amount_cents`,
    [scope],
  );
  for (const p of pairs.rows) {
    found.push(
      finding(
        `return:${p.id}`,
        `${p.transactions} ledger transaction(s), ${p.entries} entries: customer ${p.customer ?? "none"}, clearing ${p.clearing ?? "none"}`,
      ),
    );
  }
  return found;
}
