// Reads of the saga record for clients and operators; each is one round trip, and each tells
// an unknown account apart (the API answers 403 for it).
import type { Queryable } from "../db/queryable.ts";
import type { PixKeyType } from "../lib/ids.ts";
import { decodePosition, type PageRow, pageOf } from "./page-position.ts";
import type { TransferResource } from "./store.ts";

export type TransferRead = { outcome: "found"; transfer: TransferResource } | { outcome: "not_found" } | { outcome: "account_not_found" };

/** The caller's transfer; another account's transfer is indistinguishable from none. */
export async function transferForAccount(db: Queryable, transferId: string, accountId: string): Promise<TransferRead> {
  const { rows } = await db.query<{ account_exists: boolean; resource: TransferResource | null }>(
    `SELECT EXISTS (SELECT 1 FROM accounts WHERE id = $2 AND kind = 'customer') AS account_exists,
            (SELECT transfer_json(t.id) FROM transfers t WHERE t.id = $1 AND t.account_id = $2) AS resource`,
    [transferId, accountId],
  );
  const row = rows[0];
  if (!row?.account_exists) return { outcome: "account_not_found" };
  return row.resource ? { outcome: "found", transfer: row.resource } : { outcome: "not_found" };
}

export type TransferPage =
  | { outcome: "page"; data: TransferResource[]; nextPosition: string | null }
  | { outcome: "account_not_found" }
  | { outcome: "bad_cursor" };

/** Newest first; the position is the (created_at, id) of the last row, at full precision. */
export async function listTransfersForAccount(
  db: Queryable,
  accountId: string,
  limit: number,
  rawPosition: string | null,
): Promise<TransferPage> {
  const cursor = rawPosition === null ? null : decodePosition(rawPosition);
  if (rawPosition !== null && cursor === null) return { outcome: "bad_cursor" };
  const { rows } = await db.query<{
    account_exists: boolean;
    page: PageRow<TransferResource>[] | null;
  }>(
    `SELECT EXISTS (SELECT 1 FROM accounts WHERE id = $1 AND kind = 'customer') AS account_exists,
            (SELECT jsonb_agg(jsonb_build_object('resource', transfer_json(p.id), 'created_at', p.created_at, 'id', p.id)
                              ORDER BY p.created_at DESC, p.id DESC)
               FROM (SELECT id, created_at FROM transfers
                      WHERE account_id = $1
                        AND ($2::timestamptz IS NULL OR (created_at, id) < ($2::timestamptz, $3::uuid))
                      ORDER BY created_at DESC, id DESC LIMIT $4) p) AS page`,
    [accountId, cursor?.createdAt ?? null, cursor?.id ?? null, limit + 1],
  );
  const row = rows[0];
  if (!row?.account_exists) return { outcome: "account_not_found" };
  return { outcome: "page", ...pageOf(row.page ?? [], limit) };
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
