// Both adapters paying and resolving dynamic BR Codes against the sandbox's two dialects, with
// every request recorded: the generic send carries br_code instead of the key, Efí's goes to its
// /qrcode route; resolve answers become resolutions, refusals or unknowns. Also the answers
// neither sandbox gives (malformed, another API's 404, a charge no longer active).
import { describe, expect, it } from "vitest";
import type { ProviderExchange } from "../../src/provider/classify.ts";
import { classifyResolve } from "../../src/provider/classify-resolve.ts";
import { createEfiProvider } from "../../src/provider/efi/adapter.ts";
import { classifyEfiDetalhar } from "../../src/provider/efi/qrcode.ts";
import { createHttpProvider } from "../../src/provider/http-provider.ts";
import type { ProviderEvidence } from "../../src/provider/port.ts";
import { dynamicBrCode } from "../support/br-codes.ts";
import { orderFor, sandboxBaseUrl, sandboxEnv, sandboxFetcher } from "./support.ts";

// Without Efí credentials the sandbox's token route accepts any client, as for a local run.
const sandbox = sandboxFetcher(sandboxEnv({ EFI_CLIENT_ID: undefined, EFI_CLIENT_SECRET: undefined, SANDBOX_CONFIRM_MS: "0" }));
const efiBaseUrl = sandboxBaseUrl.replace(/\/provider$/, "/efi");

interface Seen {
  method: string;
  url: string;
  json: () => unknown;
}

function recording(): { seen: Seen[]; fetcher: (request: Request) => Promise<Response> } {
  const seen: Seen[] = [];
  return {
    seen,
    fetcher: async (request) => {
      const text = await request.text();
      seen.push({ method: request.method, url: request.url, json: () => JSON.parse(text) });
      return sandbox(
        new Request(request.url, { method: request.method, headers: request.headers, ...(text === "" ? {} : { body: text }) }),
      );
    },
  };
}

/** Generous: the sandbox's object may start cold on a loaded machine; its answers here are immediate. */
const timeoutMs = 20_000;

describe("the generic adapter", () => {
  it("pays a dynamic code with br_code in place of the key fields", async () => {
    const { seen, fetcher } = recording();
    const provider = createHttpProvider({ baseUrl: sandboxBaseUrl, token: undefined, timeoutMs, fetcher });
    const brCode = dynamicBrCode("ana@example.com", 2_500);
    const order = orderFor("ana@example.com", { amountCents: 2_500, brCode });
    expect(await provider.send(order)).toMatchObject({ kind: "accepted" });
    expect(seen[0]?.json()).toEqual({ amount_cents: 2_500, br_code: brCode, description: "aluguel" });
  });

  it("is refused by the sandbox for an amount other than the code's", async () => {
    const { fetcher } = recording();
    const provider = createHttpProvider({ baseUrl: sandboxBaseUrl, token: undefined, timeoutMs, fetcher });
    const order = orderFor("ana@example.com", { amountCents: 2_501, brCode: dynamicBrCode("ana@example.com", 2_500) });
    expect(await provider.send(order)).toMatchObject({ kind: "rejected", code: "amount_mismatch" });
  });

  it("resolves with POST /br-codes/resolve", async () => {
    const { seen, fetcher } = recording();
    const provider = createHttpProvider({ baseUrl: sandboxBaseUrl, token: undefined, timeoutMs, fetcher });
    const brCode = dynamicBrCode("10000000108", 100);
    expect(await provider.resolveBrCode(brCode)).toMatchObject({
      kind: "resolved",
      payment: { pixKey: "10000000108", pixKeyType: "cpf", amountCents: 100, merchantName: "LOJA DA ANA" },
    });
    expect(seen[0]?.method).toBe("POST");
    expect(seen[0]?.url).toBe(`${sandboxBaseUrl}/br-codes/resolve`);
    expect(await provider.resolveBrCode(dynamicBrCode("expired", 100))).toMatchObject({ kind: "refused", code: "expired" });
    expect(await provider.resolveBrCode(dynamicBrCode("unavailable", 100))).toMatchObject({ kind: "unknown", why: "http_503" });
  });
});

describe("the Efí adapter", () => {
  function efi() {
    const { seen, fetcher } = recording();
    const provider = createEfiProvider({
      baseUrl: efiBaseUrl,
      clientId: "id",
      clientSecret: "secret",
      payerKey: "pagador@sandbox.test",
      timeoutMs,
      fetcher,
      tokenCache: new Map(),
    });
    return { seen, provider };
  }

  it("pays a dynamic code through PUT /v2/gn/pix/:idEnvio/qrcode with pixCopiaECola", async () => {
    const { seen, provider } = efi();
    const brCode = dynamicBrCode("ana@example.com", 1_234);
    const order = orderFor("ana@example.com", { amountCents: 1_234, brCode });
    expect(await provider.send(order)).toMatchObject({ kind: "accepted" });
    const pay = seen.find((r) => r.method === "PUT");
    expect(pay?.url).toBe(`${efiBaseUrl}/v2/gn/pix/${order.idempotencyKey.replaceAll("-", "")}/qrcode`);
    expect(pay?.json()).toEqual({ pagador: { chave: "pagador@sandbox.test", infoPagador: "aluguel" }, pixCopiaECola: brCode });
  });

  it("resolves with POST /v2/gn/qrcodes/detalhar; an expired code is refused, the empty bucket (429) unknown", async () => {
    const { seen, provider } = efi();
    const brCode = dynamicBrCode("reject@sandbox.test", 500);
    expect(await provider.resolveBrCode(brCode)).toMatchObject({
      kind: "resolved",
      payment: { pixKey: "reject@sandbox.test", pixKeyType: "email", amountCents: 500, merchantCity: "SAO PAULO" },
    });
    const detalhar = seen.find((r) => r.method === "POST" && r.url.endsWith("/v2/gn/qrcodes/detalhar"));
    expect(detalhar?.json()).toEqual({ pixCopiaECola: brCode });
    expect(await provider.resolveBrCode(dynamicBrCode("expired", 500))).toMatchObject({ kind: "refused", code: "QrCodeExpirado" });
    expect(await provider.resolveBrCode(dynamicBrCode("unavailable", 500))).toMatchObject({ kind: "unknown", why: "http_429" });
  });
});

const evidence: ProviderEvidence = { httpStatus: 200, durationMs: 1, body: null, error: null };
const answered = (httpStatus: number, value: unknown): ProviderExchange => ({
  kind: "answered",
  httpStatus,
  body: { kind: "json", value },
});

describe("resolve answers neither sandbox gives", () => {
  it("treats a malformed 200, an invalid key and another API's 404 as unknown", () => {
    expect(classifyResolve(answered(200, { kind: "dynamic", pix_key: "x" }), evidence)).toMatchObject({
      kind: "unknown",
      why: "malformed_body",
    });
    const badKey = {
      kind: "dynamic",
      pix_key: "not a key",
      pix_key_type: "email",
      amount_cents: 1,
      merchant_name: null,
      merchant_city: null,
      txid: null,
    };
    expect(classifyResolve(answered(200, badKey), evidence)).toMatchObject({ kind: "unknown", why: "invalid_key" });
    const wrongType = { ...badKey, pix_key: "ana@example.com", pix_key_type: "cpf" };
    expect(classifyResolve(answered(200, wrongType), evidence)).toMatchObject({ kind: "unknown", why: "invalid_key" });
    expect(classifyResolve({ kind: "answered", httpStatus: 404, body: { kind: "not_json" } }, evidence)).toMatchObject({ kind: "unknown" });
    expect(classifyResolve({ kind: "timed_out" }, evidence)).toMatchObject({ kind: "unknown", why: "timeout" });
  });

  it("refuses an Efí charge that is no longer active, and reads valor.final over valor.original", () => {
    const charge = { chave: "ana@example.com", status: "CONCLUIDA", valor: { original: "1.00" } };
    expect(classifyEfiDetalhar(answered(200, charge), evidence)).toMatchObject({ kind: "refused", code: "cobranca_concluida" });
    const active = { ...charge, status: "ATIVA", valor: { original: "1.00", final: "1.10" } };
    expect(classifyEfiDetalhar(answered(200, active), evidence)).toMatchObject({ kind: "resolved", payment: { amountCents: 110 } });
    expect(classifyEfiDetalhar(answered(400, "<html>"), evidence)).toMatchObject({ kind: "unknown" });
    const gone = { type: "https://pix.bcb.gov.br/api/v2/error/CobNaoEncontrado", title: "Cobrança não encontrada", status: 404 };
    expect(classifyEfiDetalhar(answered(404, gone), evidence)).toMatchObject({ kind: "refused", code: "CobNaoEncontrado" });
    expect(classifyEfiDetalhar(answered(404, "<html>"), evidence)).toMatchObject({ kind: "unknown", why: "http_404_not_efi" });
  });
});
