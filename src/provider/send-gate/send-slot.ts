// The shape of a send slot, apart from the gate object itself, so the saga runtime (and Node
// tools such as the bench) can name it without loading the Durable Object's module.

/**
 * `stillInFlight(result)` true says the caller gave up on the send (a timeout) while it may still
 * be running at the provider: the slot then comes back a bounded time later (slot.ts says how
 * long and why), not at once.
 */
export type SendSlot = <T>(work: () => Promise<T>, stillInFlight?: (result: T) => boolean) => Promise<T>;
