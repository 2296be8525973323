// The sandbox's magic keys (CONTRACT §4) as data: each email key picks how the sandbox answers
// the send, where the payment ends, and what its webhook says. Any other key is the happy path.

export type SendBehaviour =
  /** Answer at once with the payment. */
  | "accept"
  /** Answer 422 `{code}` at once; nothing is made. */
  | "reject"
  /** Make the Pix, then answer only after the caller's timeout has passed. */
  | "slow_made"
  /** Wait past the caller's timeout and make nothing. */
  | "slow_lost"
  /** Make the Pix, then answer 500. */
  | "error_made";

export interface Behaviour {
  send: SendBehaviour;
  /** Where the payment ends after SANDBOX_CONFIRM_MS; "processing" means it never ends. */
  finalStatus: "confirmed" | "rejected" | "processing";
  /** The provider's code for a rejection (send or final status). */
  rejectCode: string | null;
  /** What the webhook claims, or null when none is sent. */
  webhookStatus: "confirmed" | "rejected" | null;
  /** Status checks answered 503 before the real answer. */
  unavailableStatusCalls: number;
  /** Money that comes back after the payment confirmed (./returns.ts scripts when and how much). */
  returns: "none" | "whole" | "halves";
  /**
   * The payment is hidden (status 404) until the caller's not-found grace window has passed,
   * then confirmed: a Pix that left late, after the saga released the hold.
   */
  hiddenPastGrace: boolean;
}

const happyPath: Behaviour = {
  send: "accept",
  finalStatus: "confirmed",
  rejectCode: null,
  webhookStatus: "confirmed",
  unavailableStatusCalls: 0,
  returns: "none",
  hiddenPastGrace: false,
};

export const magicKeys: Readonly<Record<string, Behaviour>> = {
  "reject@sandbox.test": { ...happyPath, send: "reject", finalStatus: "rejected", rejectCode: "invalid_key", webhookStatus: null },
  "late-reject@sandbox.test": { ...happyPath, finalStatus: "rejected", rejectCode: "beneficiary_refused", webhookStatus: "rejected" },
  "timeout-sent@sandbox.test": { ...happyPath, send: "slow_made" },
  "timeout-lost@sandbox.test": { ...happyPath, send: "slow_lost", webhookStatus: null },
  "error-sent@sandbox.test": { ...happyPath, send: "error_made" },
  "processing@sandbox.test": { ...happyPath, finalStatus: "processing", webhookStatus: null },
  "silent@sandbox.test": { ...happyPath, webhookStatus: null },
  "flaky-status@sandbox.test": { ...happyPath, unavailableStatusCalls: 3 },
  "lying-webhook@sandbox.test": { ...happyPath, webhookStatus: "rejected" },
  "returned@sandbox.test": { ...happyPath, returns: "whole" },
  "partial-return@sandbox.test": { ...happyPath, returns: "halves" },
  "late-confirm@sandbox.test": { ...happyPath, webhookStatus: null, hiddenPastGrace: true },
};

export function behaviourFor(pixKey: string): Behaviour {
  return magicKeys[pixKey.toLowerCase()] ?? happyPath;
}

/**
 * Whether money actually leaves: only for a send that reached the provider and a payment that
 * settles. A rejected or lost send, or one that never leaves processing, moves nothing.
 */
export function makesPix(behaviour: Behaviour): boolean {
  return behaviour.send !== "reject" && behaviour.send !== "slow_lost" && behaviour.finalStatus === "confirmed";
}

/** Whether the provider holds the order at all (a lost send leaves no trace: status is 404). */
export function isKnownToProvider(behaviour: Behaviour): boolean {
  return behaviour.send !== "slow_lost";
}
