// What the transfer's object answers over RPC (src/saga-object.ts): results as values, never
// exceptions, so a caller across the RPC boundary tells "try again" (Unavailable) from an answer.
export type PokeSource = "webhook" | "sweeper";
/** The first response travels as JSON text: exactly the bytes a replay must repeat. */
export type StartResult =
  | { outcome: "created" | "replayed"; transferId: string; responseBody: string }
  | { outcome: "key_reused"; transferId: string }
  | { outcome: "account_not_found" }
  /** A schedule past MAX_PENDING_SCHEDULED waiting: nothing was written. */
  | { outcome: "too_many_scheduled" }
  | Unavailable;
/** A fault (database unreachable, connection lost) rather than an answer: try again. */
export type Unavailable = { outcome: "unavailable" };

/** A transfer opened or changed outside its object, now read, announced and armed by it. */
export type AdoptResult = { outcome: "adopted" | "not_found" } | Unavailable;

export type EnsureArmedResult = { outcome: "armed" | "already_armed" | "nothing_to_wait_for" | "not_found" } | Unavailable;

export type ResolveResult =
  | { outcome: "resolved"; state: string }
  | { outcome: "not_in_review"; state: string }
  /** The outcome does not fit this hold: `sent` before anything was sent, `approve` after. */
  | { outcome: "wrong_outcome"; refusal: "no_pix_to_settle" | "nothing_to_approve" }
  | { outcome: "not_found" }
  | Unavailable;

/** The owner's cancel: only while scheduled (CONTRACT §2); `not_scheduled` is the route's 409. */
export type CancelResult =
  | { outcome: "canceled"; responseBody: string }
  | { outcome: "not_scheduled"; state: string }
  | { outcome: "not_found" }
  | Unavailable;

/** A client's contestation (CONTRACT §2): created or replayed (its first answer as JSON text), or refused. */
export type ContestResult =
  | { outcome: "created" | "replayed"; contestationId: string; responseBody: string }
  | { outcome: "key_reused" | "transfer_not_found" | "window_closed" | "wholly_returned" | "already_contested" }
  | { outcome: "not_completed"; state: string }
  | Unavailable;

/** The owner's cancel of a contestation, or an operator's record of Efí's steps: the state it was in when refused. */
export type ContestationStepResult =
  | { outcome: "done"; state: string }
  | { outcome: "wrong_state"; state: string }
  /** An operator's record for a provider whose contestation API the object drives itself. */
  | { outcome: "provider_drives_it" }
  | { outcome: "not_found" }
  | Unavailable;
