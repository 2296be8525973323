// Trusted recipients (CONTRACT §2): the keys an account exempts from the night rules and the
// new-key review once their waiting period is over. Each operation is one SQL function call;
// the instant is passed in (business time), which decides `pending` or `active`.
import type { Queryable } from "../db/queryable.ts";
import type { PixKeyType } from "../lib/ids.ts";
import { trustedRecipientsPerAccountMax } from "./trusted-recipient-bounds.ts";

/** A key as stored: normalised at the edge (src/pix/key.ts), as on transfers. */
export interface RecipientKey {
  pixKey: string;
  pixKeyType: PixKeyType;
}

/** The resource exactly as CONTRACT §2 shows it, rendered by trusted_recipient_json(). */
export interface TrustedRecipient extends Record<string, unknown> {
  pix_key: string;
  pix_key_type: PixKeyType;
  name: string | null;
  state: "pending" | "active";
  effective_at: string;
}

export type PutRecipientResult =
  | { outcome: "created" | "exists"; recipient: TrustedRecipient }
  | { outcome: "too_many" }
  | { outcome: "account_not_found" };

/** Trusts `key` from `delayMs` after `nowMs`; a key already there is answered as it is (renamed when `name` is given). */
export async function putTrustedRecipient(
  db: Queryable,
  accountId: string,
  key: RecipientKey,
  name: string | null,
  nowMs: number,
  delayMs: number,
): Promise<PutRecipientResult> {
  const { rows } = await db.query<{ r: { outcome: string; recipient?: TrustedRecipient } }>(
    "SELECT trusted_recipient_put($1, $2, $3, $4, ms_to_timestamptz($5), $6, $7) AS r",
    [accountId, key.pixKey, key.pixKeyType, name, nowMs, delayMs, trustedRecipientsPerAccountMax],
  );
  const r = rows[0]?.r;
  switch (r?.outcome) {
    case "created":
    case "exists":
      if (r.recipient === undefined) break;
      return { outcome: r.outcome, recipient: r.recipient };
    case "too_many":
      return { outcome: "too_many" };
    case "account_not_found":
      return { outcome: "account_not_found" };
  }
  throw new Error(`trusted_recipient_put answered ${JSON.stringify(r)}`);
}

/** The account's trusted recipients, oldest first, as of `nowMs`; null when no such account. */
export async function listTrustedRecipients(db: Queryable, accountId: string, nowMs: number): Promise<TrustedRecipient[] | null> {
  const { rows } = await db.query<{ data: TrustedRecipient[] | null }>(
    "SELECT trusted_recipients_list($1, ms_to_timestamptz($2)) AS data",
    [accountId, nowMs],
  );
  return rows[0]?.data ?? null;
}

export type RemoveRecipientResult = "removed" | "not_found" | "account_not_found";

/** No longer trusted, at once. */
export async function removeTrustedRecipient(db: Queryable, accountId: string, key: RecipientKey): Promise<RemoveRecipientResult> {
  const { rows } = await db.query<{ r: string }>("SELECT trusted_recipient_remove($1, $2, $3) AS r", [
    accountId,
    key.pixKey,
    key.pixKeyType,
  ]);
  const r = rows[0]?.r;
  if (r === "removed" || r === "not_found" || r === "account_not_found") return r;
  throw new Error(`trusted_recipient_remove answered ${String(r)}`);
}
