// A webhook (CONTRACT §3, §3b) only makes the named transfers' sagas ask the provider now, and
// its answer must not wait for them: a saga may sit at the send gate or in a provider call for
// seconds, and a PSP gives up on a slow receiver (one slow answer holds Efí's whole batch). Each
// poke is started before the answer is returned and kept alive with waitUntil, so it is always
// attempted; a poke that fails is logged, and the saga's own alarm and the sweeper still come.
import type { Context } from "hono";
import { log } from "../lib/log.ts";

export function pokeInBackground(
  c: Context<{ Bindings: Env }>,
  transferIds: readonly string[],
  logName: string,
  fields: Record<string, unknown> = {},
): void {
  const pokes = transferIds.map(async (transferId) => {
    try {
      const { state } = await c.env.TRANSFER_SAGA.getByName(transferId).poke("webhook");
      log(c, logName, { ...fields, idempotency_key: transferId, outcome: "poked", state });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log(c, logName, { ...fields, idempotency_key: transferId, outcome: "poke_failed", error: message }, "error");
    }
  });
  c.executionCtx.waitUntil(Promise.all(pokes));
}
