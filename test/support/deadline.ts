// A saga's deadline, driven instead of waited for: SAGA_DEADLINE_MS is 4 s in the tests, and a
// transfer the provider keeps `processing` would sit all of it out. Once the transfer was sent
// (`submitted`), its deadline moves to now in the database, the object drops its cached record
// (so its next step reads the database's) and its alarm runs at once: the saga asks the provider
// once more and, at its deadline, hands the transfer to operators as it would have at 4 s. An
// alarm of its own that crossed the drop only delays this by one more turn of the loop.
import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { sleep } from "../../src/lib/sleep.ts";
import { getTransfer, type TransferJson } from "./api.ts";
import { testPool } from "./db.ts";

const finalStates = ["completed", "compensated", "needs_review"];
const pollMs = 50;

/** The transfer's final state, its deadline brought forward once it was sent. */
export async function finalStateAtDeadline(accountId: string, id: string, timeoutMs = 15_000): Promise<TransferJson> {
  const pool = testPool(1);
  const saga = env.TRANSFER_SAGA.getByName(id);
  const giveUpAtMs = Date.now() + timeoutMs;
  try {
    for (;;) {
      const transfer = await getTransfer(accountId, id);
      if (finalStates.includes(transfer.state)) return transfer;
      if (Date.now() > giveUpAtMs) throw new Error(`transfer ${id} still ${transfer.state} after ${timeoutMs} ms`);
      if (transfer.state !== "submitted") {
        await sleep(pollMs);
        continue;
      }
      await pool.query("UPDATE transfers SET deadline_at = least(deadline_at, now()) WHERE id = $1", [id]);
      await runInDurableObject(saga, (_, state) => state.storage.delete("saga"));
      if (!(await runDurableObjectAlarm(saga))) await sleep(pollMs);
    }
  } finally {
    await pool.end();
  }
}
