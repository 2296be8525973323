// The holder's side of an account's stream slots (stream-slots-object.ts): what a transfer's
// object calls to take, keep and give back one slot of its account for one open stream.
import type { SlotResult } from "./stream-slots-object.ts";

export interface AccountStreamSlots {
  acquire(): Promise<SlotResult>;
  /** false: the lease is gone, so the stream must end (it no longer counts against the account). */
  renew(leaseId: string): Promise<boolean>;
  release(leaseId: string): Promise<void>;
}

/**
 * The slots of `accountId`, at most `limit` of them. `leaseMs`: how long a slot outlives its
 * holder's last renewal; `lifetimeMs`: the longest a stream lives.
 */
export function accountStreamSlots(
  namespace: Env["STREAM_SLOTS"],
  accountId: string,
  bounds: { limit: number; leaseMs: number; lifetimeMs: number },
): AccountStreamSlots {
  const slots = () => namespace.getByName(accountId);
  return {
    acquire: () => slots().acquire(bounds),
    renew: (leaseId) => slots().renew(leaseId, bounds.leaseMs),
    release: async (leaseId) => {
      await slots().release(leaseId);
    },
  };
}
