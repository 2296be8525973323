// The shape of a send slot, apart from the gate object itself, so the saga runtime (and Node
// tools such as the bench) can name it without loading the Durable Object's module.

/**
 * `keepLease(result)` true leaves the lease to expire instead of releasing it: a send we stopped
 * waiting for (a timeout) may still be in flight at the provider, so it still counts.
 */
export type SendSlot = <T>(work: () => Promise<T>, keepLease?: (result: T) => boolean) => Promise<T>;
