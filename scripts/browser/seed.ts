// Test data through the public APIs, as operators and the mobile app create it: an account,
// a credit, and transfers (signed in with an HS256 client JWT) followed to their final states.
import { randomUUID } from "node:crypto";
import { sleep } from "../../src/lib/sleep.ts";
import { jsonCall } from "../lib/json-call.ts";
import { mintAccountToken } from "../lib/jwt.ts";

const pollIntervalMs = 200;
const settleTimeoutMs = 30_000;
const tokenLifetimeSeconds = 900;
const finalStates = new Set(["completed", "compensated", "needs_review"]);

export interface Secrets {
  opsToken: string;
  jwtSecret: string;
}

export interface OpsTransfer {
  id: string;
  state: string;
  amount_cents: number;
  end_to_end_id: string | null;
  account_id: string;
}

export interface Balance {
  balance_cents: number;
  held_cents: number;
  available_cents: number;
}

export class Api {
  readonly baseUrl: string;
  readonly secrets: Secrets;

  constructor(baseUrl: string, secrets: Secrets) {
    this.baseUrl = baseUrl;
    this.secrets = secrets;
  }

  call<T>(method: string, urlPath: string, token: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    return jsonCall<T>(this.baseUrl, method, urlPath, token, body, headers);
  }

  async fundedAccount(accountId: string, amountCents: number): Promise<void> {
    await this.call("PUT", `/ops/accounts/${accountId}`, this.secrets.opsToken);
    await this.call("POST", `/ops/accounts/${accountId}/credits`, this.secrets.opsToken, {
      amount_cents: amountCents,
      idempotency_key: "seed",
    });
  }

  clientToken(accountId: string): string {
    return mintAccountToken(accountId, this.secrets.jwtSecret, tokenLifetimeSeconds);
  }

  async createTransfer(accountId: string, amountCents: number, pixKey: string, pixKeyType: string): Promise<string> {
    const created = await this.call<{ id: string }>(
      "POST",
      "/v1/transfers",
      this.clientToken(accountId),
      { amount_cents: amountCents, pix_key: pixKey, pix_key_type: pixKeyType, description: "browser test" },
      { "idempotency-key": randomUUID() },
    );
    return created.id;
  }

  transfer(id: string): Promise<OpsTransfer> {
    return this.call<OpsTransfer>("GET", `/ops/transfers/${id}`, this.secrets.opsToken);
  }

  balance(accountId: string): Promise<Balance> {
    return this.call<Balance>("GET", "/v1/balance", this.clientToken(accountId));
  }

  async waitForFinalState(id: string): Promise<OpsTransfer> {
    const giveUpAtMs = Date.now() + settleTimeoutMs;
    for (;;) {
      const transfer = await this.transfer(id);
      if (finalStates.has(transfer.state)) return transfer;
      if (Date.now() > giveUpAtMs) throw new Error(`transfer ${id} still ${transfer.state} after ${settleTimeoutMs} ms`);
      await sleep(pollIntervalMs);
    }
  }
}

export interface Seeded {
  accountId: string;
  completed: OpsTransfer;
  /** Resolved as not_sent through the console. */
  reviewA: OpsTransfer;
  /** Target of the forged posts; resolved as sent through the console afterwards. */
  reviewB: OpsTransfer;
  /** Completed, then the whole amount comes back (returned@sandbox.test). */
  returned: OpsTransfer;
  /** Released after a not-found, then the Pix left (late-confirm@sandbox.test): paid after release. */
  released: OpsTransfer;
  /** Before every seeded transfer: where a provider reconciliation window starts. */
  seededFromMs: number;
}

export async function seed(api: Api): Promise<Seeded> {
  const seededFromMs = Date.now() - 1_000;
  const accountId = `browser-${randomUUID().slice(0, 8)}`;
  await api.fundedAccount(accountId, 100_000);
  const ids = [
    await api.createTransfer(accountId, 2_500, "100.000.001-08", "cpf"),
    await api.createTransfer(accountId, 12_345, "processing@sandbox.test", "email"),
    await api.createTransfer(accountId, 6_789, "processing@sandbox.test", "email"),
    await api.createTransfer(accountId, 2_222, "returned@sandbox.test", "email"),
    await api.createTransfer(accountId, 4_321, "late-confirm@sandbox.test", "email"),
  ];
  const [completed, reviewA, reviewB, returned, released] = await Promise.all(ids.map((id) => api.waitForFinalState(id)));
  if (completed?.state !== "completed") throw new Error(`the CPF transfer ended ${completed?.state}, expected completed`);
  if (reviewA?.state !== "needs_review" || reviewB?.state !== "needs_review") {
    throw new Error(`the processing@sandbox.test transfers ended ${reviewA?.state} and ${reviewB?.state}, expected needs_review`);
  }
  if (returned?.state !== "completed") throw new Error(`the returned@sandbox.test transfer ended ${returned?.state}, expected completed`);
  if (released?.state !== "compensated") {
    throw new Error(`the late-confirm@sandbox.test transfer ended ${released?.state}, expected compensated`);
  }
  return { accountId, completed, reviewA, reviewB, returned, released, seededFromMs };
}
