// The sandbox's Efí dialect (/sandbox/efi) answered directly: its token endpoint refuses what Efí
// refuses (other client credentials, a malformed request), its API wants the token, and its
// statement (GET /v2/gn/pix/enviados) lists the sends of a time window in Efí's shape.
import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { dynamicBrCode } from "../support/br-codes.ts";

const base = "http://example.com/sandbox/efi";

function tokenRequest(basic: string | null, body: unknown = { grant_type: "client_credentials" }): Request {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (basic !== null) headers.authorization = `Basic ${btoa(basic)}`;
  return new Request(`${base}/oauth/token`, { method: "POST", headers, body: JSON.stringify(body) });
}

async function accessToken(): Promise<string> {
  const response = await exports.default.fetch(tokenRequest(`${env.EFI_CLIENT_ID}:${env.EFI_CLIENT_SECRET}`));
  expect(response.status).toBe(200);
  return (await response.json<{ access_token: string }>()).access_token;
}

describe("the sandbox's Efí token endpoint", () => {
  it("grants a Bearer token to the configured client credentials, in Efí's shape", async () => {
    const response = await exports.default.fetch(tokenRequest(`${env.EFI_CLIENT_ID}:${env.EFI_CLIENT_SECRET}`));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ access_token: expect.any(String), token_type: "Bearer", expires_in: 3600 });
  });

  it("refuses other client credentials 401 invalid_client, and a malformed request 400", async () => {
    const wrong = await exports.default.fetch(tokenRequest(`${env.EFI_CLIENT_ID}:not-the-secret`));
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: "invalid_client" });
    const noBasic = await exports.default.fetch(tokenRequest(null));
    expect(noBasic.status).toBe(400);
    await noBasic.body?.cancel();
    const otherGrant = await exports.default.fetch(
      tokenRequest(`${env.EFI_CLIENT_ID}:${env.EFI_CLIENT_SECRET}`, { grant_type: "password" }),
    );
    expect(otherGrant.status).toBe(400);
    await otherGrant.body?.cancel();
  });

  it("refuses an API call without one of its tokens 401 nao_autorizado", async () => {
    const response = await exports.default.fetch(
      new Request(`${base}/v2/gn/pix/enviados?inicio=2026-12-01T00:00:00Z&fim=2026-12-02T00:00:00Z`, {
        headers: { authorization: "Bearer someone-elses-token" },
      }),
    );
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ nome: "nao_autorizado" });
  });
});

describe("the sandbox's Efí statement", () => {
  it("lists the sends of the window asked for, with Efí's pagination, and none outside it", async () => {
    const bearer = { authorization: `Bearer ${await accessToken()}` };
    const idEnvio = crypto.randomUUID().replaceAll("-", "");
    // Other files share this sandbox and send all the time: the window is the send's own moment,
    // so that one page holds all of it.
    const sentFromMs = Date.now() - 1;
    const sent = await exports.default.fetch(
      new Request(`${base}/v3/gn/pix/${idEnvio}`, {
        method: "PUT",
        headers: { ...bearer, "content-type": "application/json" },
        body: JSON.stringify({ valor: "12.34", pagador: { chave: env.EFI_PAYER_KEY }, favorecido: { chave: "silent@sandbox.test" } }),
      }),
    );
    expect(sent.status).toBe(201);
    await sent.body?.cancel();

    const list = async (fromMs: number, toMs: number) => {
      const query = new URLSearchParams({ inicio: new Date(fromMs).toISOString(), fim: new Date(toMs).toISOString() });
      const response = await exports.default.fetch(new Request(`${base}/v2/gn/pix/enviados?${query}`, { headers: bearer }));
      expect(response.status).toBe(200);
      return response.json<{ parametros: { paginacao: { quantidadeTotalDeItens: number } }; pix: { idEnvio: string; valor: string }[] }>();
    };
    const sentToMs = Date.now() + 1;
    const nowMs = Date.now();
    const around = await list(sentFromMs, sentToMs);
    expect(around.pix.filter((p) => p.idEnvio === idEnvio)).toEqual([expect.objectContaining({ idEnvio, valor: "12.34" })]);
    expect(around.parametros.paginacao.quantidadeTotalDeItens).toBe(around.pix.length);
    const yesterday = await list(nowMs - 2 * 86_400_000, nowMs - 86_400_000);
    expect(yesterday.pix.some((p) => p.idEnvio === idEnvio)).toBe(false);

    const missing = await exports.default.fetch(new Request(`${base}/v2/gn/pix/enviados?inicio=2026-12-01T00:00:00Z`, { headers: bearer }));
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ nome: "parametros_invalidos" });
  });
});

describe("the sandbox's Efí charges (PATCH /v2/cob/:txid)", () => {
  async function efi(path: string, method: string, body: unknown): Promise<Response> {
    const headers = { authorization: `Bearer ${await accessToken()}`, "content-type": "application/json" };
    return exports.default.fetch(new Request(`${base}${path}`, { method, headers, body: JSON.stringify(body) }));
  }

  it("lets the receiver raise a live charge and move it to another key, as detalhar then shows, revision by revision", async () => {
    const code = dynamicBrCode(`cobranca-${crypto.randomUUID().slice(0, 8)}`, 600);
    const detalhar = await efi("/v2/gn/qrcodes/detalhar", "POST", { pixCopiaECola: code });
    const before = await detalhar.json<{ txid: string; revisao: number; status: string; valor: { original: string } }>();
    expect(before).toMatchObject({ revisao: 0, status: "ATIVA", valor: { original: "6.00" } });
    const patched = await efi(`/v2/cob/${before.txid}`, "PATCH", { valor: { original: "650.00" }, chave: "mule@example.com" });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ txid: before.txid, revisao: 1, status: "ATIVA", chave: "mule@example.com" });
    const after = await efi("/v2/gn/qrcodes/detalhar", "POST", { pixCopiaECola: code });
    expect(await after.json()).toMatchObject({ revisao: 1, valor: { original: "650.00" }, chave: "mule@example.com" });
  });

  it("shows a removed charge as REMOVIDA_PELO_USUARIO_RECEBEDOR and refuses to pay it, 400 QrcodeOperacaoInvalida", async () => {
    const code = dynamicBrCode(`cobranca-${crypto.randomUUID().slice(0, 8)}`, 700);
    const { txid } = await (await efi("/v2/gn/qrcodes/detalhar", "POST", { pixCopiaECola: code })).json<{ txid: string }>();
    const removed = await efi(`/v2/cob/${txid}`, "PATCH", { status: "REMOVIDA_PELO_USUARIO_RECEBEDOR" });
    expect(await removed.json()).toMatchObject({ status: "REMOVIDA_PELO_USUARIO_RECEBEDOR" });
    const detalhar = await efi("/v2/gn/qrcodes/detalhar", "POST", { pixCopiaECola: code });
    expect(await detalhar.json()).toMatchObject({ status: "REMOVIDA_PELO_USUARIO_RECEBEDOR" });
    const idEnvio = crypto.randomUUID().replaceAll("-", "");
    const paid = await efi(`/v2/gn/pix/${idEnvio}/qrcode`, "PUT", { pagador: { chave: "pagador@sandbox.test" }, pixCopiaECola: code });
    expect(paid.status).toBe(400);
    expect(await paid.json()).toMatchObject({ type: expect.stringMatching(/\/QrcodeOperacaoInvalida$/), status: 400 });
  });

  it("refuses a change it cannot read, 400 in the Pix API's words", async () => {
    const response = await efi("/v2/cob/sandbox0123456789abcdef01234567", "PATCH", { valor: { original: "abc" } });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ type: expect.stringMatching(/\/CobOperacaoInvalida$/) });
  });
});
