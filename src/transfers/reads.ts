// Reads of the saga record for clients and operators; each is one round trip, and each tells
// an unknown account apart (the API answers 403 for it).
import type { Queryable } from "../db/queryable.ts";
import type { PixKeyType } from "../lib/ids.ts";
import { uuidPattern } from "../lib/ids.ts";
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

/** Where a page ended; the API hands it out sealed (src/web/cursor-seal.ts), so it comes back only as issued. */
interface Position {
  createdAt: string;
  id: string;
}

function encodePosition(position: Position): string {
  return JSON.stringify([position.createdAt, position.id]);
}

/** As PostgreSQL renders a timestamptz in JSON: `2026-12-01T06:22:10.123456+00:00`. */
const cursorTimePattern = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?(?:Z|[+-](\d{2}):(\d{2}))$/;
/** PostgreSQL's own bound on a UTC offset (it renders its session's zone, UTC by default). */
const utcOffsetHoursMax = 15;
/** Transfers exist from the project's first year on; a cursor outside these years was never issued. */
const cursorYearMin = 2000;
const cursorYearMax = 9999;

/** A calendar date, clock time and UTC offset that exist (no February 30, no 24:00, no +16:00), in the years above. */
function isIssuableTime(createdAt: string): boolean {
  const parts = cursorTimePattern.exec(createdAt);
  if (!parts) return false;
  const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = parts.slice(1, 9).map((part) => Number(part ?? "0")) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (year < cursorYearMin || year > cursorYearMax || hour > 23 || minute > 59 || second > 59) return false;
  if (offsetHours > utcOffsetHoursMax || offsetMinutes > 59) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * Only a position this API could have issued: its exact encoding of a real time and a transfer
 * id. The seal already proves that; this is the second line, so that a key ever leaked still
 * cannot make PostgreSQL fail (a year-275760 date, a `+16:00` offset) instead of answering 400.
 */
function decodePosition(raw: string): Position | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) return null;
  const [createdAt, id] = parsed;
  if (typeof createdAt !== "string" || typeof id !== "string") return null;
  if (!isIssuableTime(createdAt) || !uuidPattern.test(id)) return null;
  const position = { createdAt, id };
  return encodePosition(position) === raw ? position : null;
}

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
    page: { resource: TransferResource; created_at: string; id: string }[] | null;
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
  const page = row.page ?? [];
  const hasMore = page.length > limit;
  const shown = page.slice(0, limit);
  const last = shown.at(-1);
  return {
    outcome: "page",
    data: shown.map((p) => p.resource),
    nextPosition: hasMore && last ? encodePosition({ createdAt: last.created_at, id: last.id }) : null,
  };
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
