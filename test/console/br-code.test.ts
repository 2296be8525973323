// The console's transfer page shows a BR Code transfer's code: kind, merchant, amount and txid
// for a static code; the payload URL for a dynamic one; no BR Code section for a key transfer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, clientHeaders, fundedAccount, waitForFinalState } from "../support/api.ts";
import { dynamicBrCode, staticBrCode } from "../support/br-codes.ts";
import { getPage, login } from "./support.ts";

let cookie: string;
let accountId: string;
const created: string[] = [];

beforeAll(async () => {
  cookie = await login();
  accountId = await fundedAccount(100_000);
});
// The pages are read while the sagas run; the file ends once they have, so no saga outlives it.
afterAll(async () => {
  await Promise.all(created.map((id) => waitForFinalState(accountId, id)));
});

async function transferWith(body: unknown): Promise<string> {
  const response = await call("/v1/transfers", {
    method: "POST",
    headers: await clientHeaders(accountId, { "idempotency-key": crypto.randomUUID() }),
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(202);
  const { id } = await response.json<{ id: string }>();
  created.push(id);
  return id;
}

async function pageText(transferId: string): Promise<string> {
  const response = await getPage(`/console/transfers/${transferId}`, cookie);
  expect(response.status).toBe(200);
  return response.text();
}

describe("the console's BR Code section", () => {
  it("shows a static code's kind, merchant, amount, txid and the code itself", async () => {
    const code = staticBrCode({ pixKey: "10000000108", pixKeyType: "cpf", amountCents: 1_234, txid: "NOTA99" });
    const html = await pageText(await transferWith({ br_code: code }));
    expect(html).toContain('<h2 id="br-code-heading">BR Code</h2>');
    expect(html).toContain("static: paid to the key it names");
    expect(html).toContain("LOJA DA ANA, SAO PAULO");
    expect(html).toContain("R$ 12,34");
    expect(html).toContain("<code>NOTA99</code>");
    expect(html).toContain(`<code>${code}</code>`);
  });

  it("shows a dynamic code's payload URL and the merchant as the code says", async () => {
    const html = await pageText(await transferWith({ br_code: dynamicBrCode("cobranca-console", 500) }));
    expect(html).toContain("dynamic: resolved by the provider, paid as the code");
    expect(html).toContain("<code>https://pix.sandbox.test/qr/v2/cobranca-console</code>");
    expect(html).toContain("LOJA DA ANA, SAO PAULO (as the code says)");
  });

  it("has no BR Code section for a transfer to a key", async () => {
    const html = await pageText(await transferWith({ amount_cents: 100, pix_key: "ana@example.com", pix_key_type: "email" }));
    expect(html).not.toContain("br-code-heading");
  });
});
