// Reads of the saga record for clients and operators; each is one round trip, and each tells
// an unknown account apart (the API answers 403 for it).
import type { Queryable } from "../db/queryable.ts";
import type { PixKeyType } from "../lib/ids.ts";
import { type OwnedPage, ownedPage, ownedResource } from "./owned-reads.ts";
import type { TransferResource } from "./store.ts";

export type TransferRead = { outcome: "found"; transfer: TransferResource } | { outcome: "not_found" } | { outcome: "account_not_found" };

/** The caller's transfer; another account's transfer is indistinguishable from none. */
export async function transferForAccount(db: Queryable, transferId: string, accountId: string): Promise<TransferRead> {
  const read = await ownedResource<TransferResource>(db, "transfer", transferId, accountId);
  return read.outcome === "found" ? { outcome: "found", transfer: read.resource } : read;
}

export type TransferPage = OwnedPage<TransferResource>;

export function listTransfersForAccount(
  db: Queryable,
  accountId: string,
  limit: number,
  rawPosition: string | null,
): Promise<TransferPage> {
  return ownedPage(db, "transfer", accountId, limit, rawPosition);
}

export type KeyedTransfer =
  | { outcome: "found"; transfer: { amountCents: number; pixKey: string; pixKeyType: PixKeyType } }
  | { outcome: "not_found" }
  | { outcome: "account_not_found" };

/** The transfer an account opened under an Idempotency-Key, if any: a replay needs no provider call. */
export async function keyedTransferOf(db: Queryable, accountId: string, idempotencyKey: string): Promise<KeyedTransfer> {
  const { rows } = await db.query<{
    account_exists: boolean;
    amount_cents: string | number | null;
    pix_key: string | null;
    pix_key_type: string | null;
  }>(
    `SELECT EXISTS (SELECT 1 FROM accounts WHERE id = $1 AND kind = 'customer') AS account_exists,
            t.amount_cents, t.pix_key, t.pix_key_type
       FROM (SELECT 1) AS one
       LEFT JOIN transfers t ON t.account_id = $1 AND t.idempotency_key = $2`,
    [accountId, idempotencyKey],
  );
  const row = rows[0];
  if (!row?.account_exists) return { outcome: "account_not_found" };
  if (row.pix_key === null || row.pix_key_type === null || row.amount_cents === null || !isKeyType(row.pix_key_type))
    return { outcome: "not_found" };
  return { outcome: "found", transfer: { amountCents: Number(row.amount_cents), pixKey: row.pix_key, pixKeyType: row.pix_key_type } };
}

/** The row's CHECK (transfers_pix_key_type_known) already holds it; this narrows the type. */
function isKeyType(value: string): value is PixKeyType {
  return ["cpf", "cnpj", "email", "phone", "evp"].includes(value);
}
