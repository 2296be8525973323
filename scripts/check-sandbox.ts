// `npm run check:sandbox`: against a running `npm start`, one transfer per row of the sandbox
// table (CONTRACT §4) plus the happy path and insufficient funds; checks each end state, the
// balance to the cent, reconciliation, and at most one payment per transfer. Start the server
// with short timings, e.g.
//   SAGA_FIRST_CHECK_MS=300 SAGA_DEADLINE_MS=8000 PROVIDER_TIMEOUT_MS=700 PROVIDER_NOT_FOUND_GRACE_MS=2000 npm start
// (the grace window must end before the deadline, or timeout-lost ends in needs_review: safe,
// but not the table's row). For the Efí adapter, start the server with
//   PROVIDER=efi EFI_BASE_URL=http://127.0.0.1:8787/sandbox/efi (and the timings above)
// and run `PROVIDER=efi npm run check:sandbox`: the rows are the same; a refusal's failure_code
// is then Efí's `nome` (CONTRACT §4b), and timeout-lost is settled by a refused resend.
import { randomUUID } from "node:crypto";
import { call, followTransfer, setting, type Transfer } from "./lib/api-client.ts";
import { mintAccountToken } from "./lib/jwt.ts";

interface Row {
  pixKey: string;
  pixKeyType: string;
  amountCents: number;
  state: string;
  failureReason: string | null;
  failureCode?: string;
}

// The rows check the sandbox, not the Pix rules, at any hour: from 20:00 to 06:00 (São Paulo) the
// default night limits (R$ 1,000 per transfer and per night) apply, and raising them would only
// take effect 24 h later. So the balance stays small enough that every row, the insufficient-funds
// one (startCents + 1) included, fits the night total together.
const startCents = 50_000;
const amountCents = 2_500;
const waitMs = 60_000;

const email = (local: string, state: string, failureReason: string | null, failureCode?: string): Row => ({
  pixKey: `${local}@sandbox.test`,
  pixKeyType: "email",
  amountCents,
  state,
  failureReason,
  ...(failureCode ? { failureCode } : {}),
});

/** Which adapter the server runs: the check cannot ask it, so it is told (PROVIDER=efi). */
const efi = process.env.PROVIDER === "efi";

const rows: Row[] = [
  { pixKey: "100.000.001-08", pixKeyType: "cpf", amountCents, state: "completed", failureReason: null },
  { pixKey: "100.000.001-08", pixKeyType: "cpf", amountCents: startCents + 1, state: "compensated", failureReason: "insufficient_funds" },
  email("reject", "compensated", "provider_rejected", efi ? "pagamento_negado" : "invalid_key"),
  email("late-reject", "compensated", "provider_rejected"),
  email("timeout-sent", "completed", null),
  email("timeout-lost", "compensated", "not_sent", efi ? "pagamento_negado" : undefined),
  email("error-sent", "completed", null),
  email("processing", "needs_review", null),
  email("silent", "completed", null),
  email("flaky-status", "completed", null),
  email("lying-webhook", "completed", null),
];

interface Outcome {
  row: Row;
  transfer: Transfer;
  problems: string[];
}

async function runRow(row: Row, clientToken: string, accountId: string): Promise<Outcome> {
  const created = await call<Transfer>("POST", "/v1/transfers", clientToken, {
    body: { amount_cents: row.amountCents, pix_key: row.pixKey, pix_key_type: row.pixKeyType },
    headers: { "idempotency-key": `check-${accountId}-${row.pixKey}-${row.amountCents}` },
    quiet: true,
  });
  const transfer = await followTransfer(created.id, clientToken, waitMs, 200, false);
  const problems: string[] = [];
  if (transfer.state !== row.state) problems.push(`state ${transfer.state}, expected ${row.state}`);
  if (transfer.failure_reason !== row.failureReason)
    problems.push(`failure_reason ${transfer.failure_reason}, expected ${row.failureReason}`);
  if (row.failureCode && transfer.failure_code !== row.failureCode)
    problems.push(`failure_code ${transfer.failure_code}, expected ${row.failureCode}`);
  const payments = await call<{ data: { idempotency_key: string; made: boolean }[] }>("GET", "/sandbox/provider/payments", null, {
    quiet: true,
  });
  const made = payments.data.filter((p) => p.idempotency_key === transfer.id && p.made).length;
  if (made > 1) problems.push(`${made} payments made`);
  if (made === 1 && transfer.state !== "completed") problems.push("paid at the provider but not completed");
  return { row, transfer, problems };
}

async function check(): Promise<number> {
  const opsToken = setting("OPS_TOKEN");
  const accountId = `check-${randomUUID().slice(0, 8)}`;
  const clientToken = mintAccountToken(accountId, setting("JWT_SECRET"), 3_600);
  await call("PUT", `/ops/accounts/${accountId}`, opsToken, { quiet: true });
  await call("POST", `/ops/accounts/${accountId}/credits`, opsToken, {
    body: { amount_cents: startCents, idempotency_key: "seed" },
    quiet: true,
  });

  const outcomes = await Promise.all(rows.map((row) => runRow(row, clientToken, accountId)));
  let failed = 0;
  for (const { row, transfer, problems } of outcomes) {
    if (problems.length > 0) failed++;
    const result = problems.length === 0 ? "ok  " : "FAIL";
    console.log(
      `${result} ${row.pixKey.padEnd(26)} ${transfer.state.padEnd(13)} ${transfer.failure_reason ?? ""} ${transfer.failure_code ?? ""} ${problems.join("; ")}`,
    );
  }

  const paidCents = outcomes.filter((o) => o.transfer.state === "completed").reduce((sum, o) => sum + o.row.amountCents, 0);
  const heldCents = outcomes.filter((o) => o.transfer.state === "needs_review").reduce((sum, o) => sum + o.row.amountCents, 0);
  const balance = await call<{ balance_cents: number; held_cents: number }>("GET", "/v1/balance", clientToken, { quiet: true });
  const balanceOk = balance.balance_cents === startCents - paidCents && balance.held_cents === heldCents;
  console.log(
    `${balanceOk ? "ok  " : "FAIL"} balance ${balance.balance_cents} held ${balance.held_cents} (expected ${startCents - paidCents} and ${heldCents})`,
  );
  const report = await call<{ ok: boolean; divergences: unknown[] }>("GET", "/ops/reconciliation", opsToken, { quiet: true });
  console.log(`${report.ok ? "ok  " : "FAIL"} reconciliation ${JSON.stringify(report.divergences)}`);
  failed += (balanceOk ? 0 : 1) + (report.ok ? 0 : 1);
  const total = outcomes.length + 2;
  console.log(`${total - failed} passed, ${failed} failed`);
  return failed;
}

try {
  process.exitCode = (await check()) === 0 ? 0 : 1;
} catch (error) {
  console.error(`check failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
