// The shape of a send slot, apart from the gate object itself, so the saga runtime (and Node
// tools such as the bench) can name it without loading the Durable Object's module.

/**
 * `stillInFlight(result)` true says the caller gave up on the send (a timeout) while it may still
 * be running at the provider: the slot then comes back `abandonedSendMarginMs` later, not at once.
 */
export type SendSlot = <T>(work: () => Promise<T>, stillInFlight?: (result: T) => boolean) => Promise<T>;

/**
 * How long a send we gave up on (PROVIDER_TIMEOUT_MS passed) still counts as in flight at the
 * provider. When we abort, the request has reached the provider or never will; what remains is
 * the provider finishing work it already started, and a PSP that has not answered a Pix send
 * within our timeout (10 s by default, many times its normal answer) is finishing it, not
 * starting it. One more second covers that tail (twice the sandbox's own overrun of 500 ms).
 * Erring short costs at most one `429` to the next send, which is unknown and retried, never
 * money; erring long leaves the gate idle with a queue behind it, as the dead-object lease did
 * (4 timeouts + 5 s: 7.8 s in the Efí suite) for a caller that had given up after one timeout.
 */
export const abandonedSendMarginMs = 1_000;
