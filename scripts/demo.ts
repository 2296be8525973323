// `npm run demo`: one Pix cash-out against the running `npm start`, end to end. Creates and funds
// a demo account (ops API), signs a client JWT, sends R$ 25,00 to a CPF key on the sandbox
// provider, follows the transfer to a final state, and shows the balance.
import { randomUUID } from "node:crypto";
import { call, followTransfer, setting, type Transfer, terminalStates } from "./lib/api-client.ts";
import { mintAccountToken } from "./lib/jwt.ts";

const accountId = "demo-account";
const seedAmountCents = 100_000;
const tokenLifetimeSeconds = 3_600;
const pollTimeoutMs = 30_000;
const pollIntervalMs = 500;

async function demo(): Promise<void> {
  const opsToken = setting("OPS_TOKEN");
  const clientToken = mintAccountToken(accountId, setting("JWT_SECRET"), tokenLifetimeSeconds);

  await call("PUT", `/ops/accounts/${accountId}`, opsToken);
  // A fixed key: running the demo again does not credit again.
  await call("POST", `/ops/accounts/${accountId}/credits`, opsToken, {
    body: { amount_cents: seedAmountCents, idempotency_key: "demo-seed" },
  });

  const created = await call<Transfer>("POST", "/v1/transfers", clientToken, {
    body: { amount_cents: 2500, pix_key: "100.000.001-08", pix_key_type: "cpf", description: "demo" },
    headers: { "idempotency-key": `demo-${randomUUID()}` },
  });
  console.log(`  transfer ${created.id}`);
  console.log(`GET /v1/transfers/${created.id} until it settles:`);
  const final = await followTransfer(created.id, clientToken, pollTimeoutMs, pollIntervalMs);
  if (!terminalStates.has(final.state)) console.log(`  still ${final.state} after ${pollTimeoutMs / 1000} s (the saga keeps going)`);
  if (final.failure_reason) console.log(`  failure: ${final.failure_reason}${final.failure_code ? ` (${final.failure_code})` : ""}`);

  console.log(JSON.stringify(await call("GET", "/v1/balance", clientToken), null, 2));
}

try {
  await demo();
} catch (error) {
  console.error(`demo failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
