// BR Codes with PROVIDER=efi (CONTRACT §4b): a dynamic code is decoded with Efí's
// qrcodes/detalhar and paid through PUT /v2/gn/pix/:idEnvio/qrcode, against the sandbox
// speaking Efí; a static code goes down the key path. Money exact.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { brCodePreviewSchema, transferSchema } from "../../src/contract/schemas.ts";
import { expectJson, expectProblem, footprint } from "../api/helpers.ts";
import { call, clientHeaders, fundedAccount, getBalance, sandboxPayment, waitForFinalState } from "../support/api.ts";
import { dynamicBrCode, staticBrCode } from "../support/br-codes.ts";
import { filePool } from "../support/pool-test.ts";

const pool = filePool(2);

const startCents = 100_000;

async function post(path: string, accountId: string, body: unknown): Promise<Response> {
  const headers = await clientHeaders(accountId, { "idempotency-key": crypto.randomUUID() });
  return call(path, { method: "POST", headers, body: JSON.stringify(body) });
}

describe("with PROVIDER=efi, BR Codes", () => {
  it("runs with the Efí adapter", () => {
    expect(env.PROVIDER).toBe("efi");
  });

  it("previews a dynamic code as Efí's detalhar resolves it", async () => {
    const accountId = await fundedAccount(0);
    const preview = await expectJson(
      await post("/v1/br-codes/preview", accountId, { br_code: dynamicBrCode("ana@example.com", 2_590) }),
      200,
      brCodePreviewSchema,
    );
    expect(preview).toMatchObject({
      kind: "dynamic",
      pix_key: "ana@example.com",
      pix_key_type: "email",
      amount_cents: 2_590,
      merchant_name: "LOJA DA ANA",
      merchant_city: "SAO PAULO",
    });
  });

  it("pays a dynamic code through Efí's /qrcode route and completes, once", async () => {
    const accountId = await fundedAccount(startCents);
    const code = dynamicBrCode("cobranca-efi", 3_210);
    const created = await expectJson(await post("/v1/transfers", accountId, { br_code: code }), 202, transferSchema);
    expect(created).toMatchObject({ amount_cents: 3_210, br_code: code, pix_key_type: "evp" });
    const final = await waitForFinalState(accountId, created.id);
    expect(final.state).toBe("completed");
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: startCents - 3_210, held_cents: 0 });
    const payment = await sandboxPayment(created.id);
    expect(payment).toMatchObject({ made: true, send_calls: 1 });
    expect(final.end_to_end_id).toBe(payment?.end_to_end_id);
  });

  it("keeps the resolved magic key's behaviour: reject@ ends compensated with Efí's pagamento_negado", async () => {
    const accountId = await fundedAccount(startCents);
    const created = await expectJson(
      await post("/v1/transfers", accountId, { br_code: dynamicBrCode("reject@sandbox.test", 1_000) }),
      202,
      transferSchema,
    );
    const final = await waitForFinalState(accountId, created.id);
    expect(final).toMatchObject({ state: "compensated", failure_reason: "provider_rejected", failure_code: "pagamento_negado" });
    expect(await getBalance(accountId)).toMatchObject({ balance_cents: startCents, held_cents: 0 });
  });

  it("pays a static code to its key, as any transfer", async () => {
    const accountId = await fundedAccount(startCents);
    const code = staticBrCode({ pixKey: "ana@example.com", pixKeyType: "email", amountCents: 700 });
    const created = await expectJson(await post("/v1/transfers", accountId, { br_code: code }), 202, transferSchema);
    expect(created).toMatchObject({ merchant_name: "LOJA DA ANA", merchant_city: "SAO PAULO" });
    expect((await waitForFinalState(accountId, created.id)).state).toBe("completed");
  });

  it("answers 422 for a code Efí refuses and 503 for Efí's empty bucket (429), writing nothing", async () => {
    const accountId = await fundedAccount(startCents);
    const before = await footprint(pool, accountId);
    await expectProblem(await post("/v1/transfers", accountId, { br_code: dynamicBrCode("expired", 100) }), 422, "br-code-unresolvable");
    const busy = await post("/v1/transfers", accountId, { br_code: dynamicBrCode("unavailable", 100) });
    await expectProblem(busy, 503, "unavailable");
    expect(busy.headers.get("retry-after")).not.toBeNull();
    expect(await footprint(pool, accountId)).toEqual(before);
  });
});
