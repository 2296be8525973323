// The smoke test's one trip through the money path: a `returned@sandbox.test` transfer, whose
// money comes back only when the sandbox's webhook reaches the Worker and is accepted (the saga
// asks for returns on a webhook; nothing else runs within this time locally).
import { randomUUID } from "node:crypto";
import { sleep } from "../../src/lib/sleep.ts";
import { jsonCall } from "./json-call.ts";
import { mintAccountToken } from "./jwt.ts";

const amountCents = 2_500;
const returnTimeoutMs = 45_000;
const pollIntervalMs = 500;

/** Resolves with how long the return took, or throws saying where it stopped. */
export async function expectMoneyBack(baseUrl: string, secrets: { opsToken: string; jwtSecret: string }): Promise<number> {
  const accountId = `smoke-${randomUUID().slice(0, 8)}`;
  await jsonCall(baseUrl, "PUT", `/ops/accounts/${accountId}`, secrets.opsToken);
  await jsonCall(baseUrl, "POST", `/ops/accounts/${accountId}/credits`, secrets.opsToken, {
    amount_cents: amountCents,
    idempotency_key: `smoke-${accountId}`,
  });
  const token = mintAccountToken(accountId, secrets.jwtSecret, 300);
  const startedAtMs = Date.now();
  const created = await jsonCall<{ id: string }>(
    baseUrl,
    "POST",
    "/v1/transfers",
    token,
    { amount_cents: amountCents, pix_key: "returned@sandbox.test", pix_key_type: "email" },
    { "idempotency-key": randomUUID() },
  );
  let last: { state: string; returned_cents: number } = { state: "started", returned_cents: 0 };
  while (Date.now() - startedAtMs < returnTimeoutMs) {
    last = await jsonCall(baseUrl, "GET", `/v1/transfers/${created.id}`, token);
    if (last.returned_cents === amountCents) {
      const balance = await jsonCall<{ available_cents: number }>(baseUrl, "GET", "/v1/balance", token);
      if (balance.available_cents !== amountCents) throw new Error(`returned, but the balance is ${balance.available_cents}`);
      return Date.now() - startedAtMs;
    }
    await sleep(pollIntervalMs);
  }
  throw new Error(
    `returned@sandbox.test: ${last.state} with ${last.returned_cents} returned after ${returnTimeoutMs} ms (a refused sandbox webhook?)`,
  );
}
