// Live dynamic charges in the sandbox: what a receiver changed in a charge after its code was
// made (a raised amount, another key, removed), so tests can change a charge between the hold
// and the send, as a receiver can at a real PSP (Efí's `PATCH /v2/cob/:txid`) until the Pix
// leaves. Stored by txid over the deterministic resolution of br-codes.ts; a charge never
// changed is exactly what its code says.
import type { PixKeyType } from "../../lib/ids.ts";
import type { SandboxResolution } from "./br-codes.ts";
import { paymentsKeptMax } from "./store.ts";

/** What a receiver changed; null fields keep what the code says. */
export interface SandboxCharge {
  txid: string;
  amountCents: number | null;
  key: { pixKey: string; pixKeyType: PixKeyType } | null;
  removed: boolean;
  /** Efí's `revisao`: how many times the charge was changed. */
  revision: number;
}

export type ChargeChange = Partial<Pick<SandboxCharge, "amountCents" | "key">> & { removed?: true };

type ChargeRow = {
  txid: string;
  amount_cents: number | null;
  pix_key: string | null;
  pix_key_type: PixKeyType | null;
  removed: number;
  revision: number;
};

export class ChargeStore {
  private readonly sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.sql = sql;
    sql.exec(`CREATE TABLE IF NOT EXISTS charges (
      txid TEXT PRIMARY KEY,
      amount_cents INTEGER CHECK (amount_cents > 0),
      pix_key TEXT,
      pix_key_type TEXT,
      removed INTEGER NOT NULL CHECK (removed IN (0, 1)),
      revision INTEGER NOT NULL,
      changed_at_ms INTEGER NOT NULL
    )`);
  }

  find(txid: string): SandboxCharge | null {
    const row = this.sql.exec<ChargeRow>("SELECT * FROM charges WHERE txid = ?", txid).toArray()[0];
    if (row === undefined) return null;
    const key = row.pix_key !== null && row.pix_key_type !== null ? { pixKey: row.pix_key, pixKeyType: row.pix_key_type } : null;
    return { txid: row.txid, amountCents: row.amount_cents, key, removed: row.removed === 1, revision: row.revision };
  }

  /** Applies a receiver's change; a removed charge stays removed. */
  change(txid: string, change: ChargeChange): SandboxCharge {
    const before = this.find(txid);
    const amountCents = change.amountCents ?? before?.amountCents ?? null;
    const key = change.key ?? before?.key ?? null;
    const removed = change.removed === true || before?.removed === true;
    this.sql.exec(
      `INSERT INTO charges (txid, amount_cents, pix_key, pix_key_type, removed, revision, changed_at_ms) VALUES (?, ?, ?, ?, ?, 1, ?)
        ON CONFLICT (txid) DO UPDATE SET amount_cents = excluded.amount_cents, pix_key = excluded.pix_key,
          pix_key_type = excluded.pix_key_type, removed = excluded.removed, revision = charges.revision + 1,
          changed_at_ms = excluded.changed_at_ms`,
      txid,
      amountCents,
      key?.pixKey ?? null,
      key?.pixKeyType ?? null,
      removed ? 1 : 0,
      Date.now(),
    );
    this.sql.exec(
      "DELETE FROM charges WHERE txid IN (SELECT txid FROM charges ORDER BY changed_at_ms DESC LIMIT -1 OFFSET ?)",
      paymentsKeptMax,
    );
    const after = this.find(txid);
    if (after === null) throw new Error(`sandbox charge ${txid} not stored`);
    return after;
  }
}

/** The code's resolution with what its receiver changed since. Pure. */
export function withCharge(resolution: SandboxResolution, charge: SandboxCharge | null): SandboxResolution {
  if (!resolution.ok || charge === null) return resolution;
  const { payment } = resolution;
  const amountCents = charge.amountCents ?? payment.amountCents;
  return { ok: true, payment: { ...payment, ...(charge.key ?? {}), amountCents, revision: charge.revision, removed: charge.removed } };
}
