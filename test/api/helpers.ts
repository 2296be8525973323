// Assertions the API tests share: exact status, content type and body shape (the response
// schemas of src/contract/), and what an account has in the database, to prove that a rejected
// request wrote nothing.
import type { Pool } from "@neondatabase/serverless";
import { expect } from "vitest";
import type { z } from "zod";
import { problemSchema, transferSchema } from "../../src/contract/schemas.ts";
import { type ProblemSlug, problemTypeUri } from "../../src/web/problem.ts";
import { createTransfer, fundedAccount, opsCall, waitForFinalState } from "../support/api.ts";
import { uniqueAccountId } from "../support/db.ts";

export type Problem = z.infer<typeof problemSchema>;

/** A problem+json answer of exactly this status and type, shaped per RFC 9457 and CONTRACT §2. */
export async function expectProblem(response: Response, status: number, slug: ProblemSlug): Promise<Problem> {
  const text = await response.text();
  expect({ status: response.status, body: text }).toMatchObject({ status });
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  const body = problemSchema.parse(JSON.parse(text));
  expect(body.type).toBe(problemTypeUri(slug));
  expect(body.status).toBe(status);
  expect(body.request_id).toBe(response.headers.get("x-request-id"));
  return body;
}

/** A 400 `validation-failed` whose `errors` name `field`. */
export async function expectValidationProblem(response: Response, field: string): Promise<Problem> {
  const body = await expectProblem(response, 400, "validation-failed");
  expect(body.errors?.map((e) => e.field)).toContain(field);
  return body;
}

/** A JSON answer of exactly this status whose body `schema` accepts. */
export async function expectJson<S extends z.ZodType>(response: Response, status: number, schema: S): Promise<z.output<S>> {
  const text = await response.text();
  expect({ status: response.status, body: text }).toMatchObject({ status });
  expect(response.headers.get("content-type")).toMatch(/^application\/json\b/);
  return schema.parse(JSON.parse(text));
}

/** Everything an account has written: rows per table, and the balance columns. */
export interface Footprint {
  transfers: number;
  history: number;
  holds: number;
  ledgerTransactions: number;
  entries: number;
  balanceCents: number | null;
  heldCents: number | null;
}

export async function footprint(pool: Pool, accountId: string): Promise<Footprint> {
  const { rows } = await pool.query<Record<string, string | null>>(
    `SELECT (SELECT count(*) FROM transfers WHERE account_id = $1) AS transfers,
            (SELECT count(*) FROM transfer_history h JOIN transfers t ON t.id = h.transfer_id WHERE t.account_id = $1) AS history,
            (SELECT count(*) FROM holds WHERE account_id = $1) AS holds,
            (SELECT count(*) FROM ledger_transactions WHERE account_id = $1) AS ledger_transactions,
            (SELECT count(*) FROM entries WHERE account_id = $1) AS entries,
            (SELECT balance_cents FROM accounts WHERE id = $1) AS balance_cents,
            (SELECT held_cents FROM accounts WHERE id = $1) AS held_cents`,
    [accountId],
  );
  const row = rows[0] ?? {};
  const count = (name: string) => Number(row[name] ?? 0);
  const cents = (name: string) => (row[name] === null || row[name] === undefined ? null : Number(row[name]));
  return {
    transfers: count("transfers"),
    history: count("history"),
    holds: count("holds"),
    ledgerTransactions: count("ledger_transactions"),
    entries: count("entries"),
    balanceCents: cents("balance_cents"),
    heldCents: cents("held_cents"),
  };
}

/** A new account with no money: a valid transfer from it ends at once (insufficient funds), nothing is sent. */
export async function emptyAccount(prefix = "api"): Promise<string> {
  const accountId = uniqueAccountId(prefix);
  const response = await opsCall(`/ops/accounts/${accountId}`, { method: "PUT" });
  if (response.status !== 201) throw new Error(`account creation answered ${response.status}`);
  return accountId;
}

export const validTransfer = { amount_cents: 2_500, pix_key: "100.000.001-08", pix_key_type: "cpf", description: "aluguel" } as const;

/** A funded account whose one valid transfer has ended, so it writes nothing more: routes that read a transfer need one. */
export async function accountWithFinishedTransfer(): Promise<{ accountId: string; transferId: string }> {
  const accountId = await fundedAccount(100_000);
  const transferId = (await expectJson(await createTransfer(accountId, validTransfer), 202, transferSchema)).id;
  await waitForFinalState(accountId, transferId);
  return { accountId, transferId };
}
