// POST /webhooks/efi and /webhooks/efi/pix through the whole Worker (CONTRACT §3b): the hmac
// and the source IP keep strangers out; a valid delivery is 200 and pokes each transfer it names.
import { env, exports } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { captureLogEvents, logsAbout, logsOf } from "../support/logs.ts";

const hmac = env.EFI_WEBHOOK_HMAC ?? "";
const efiIp = "34.193.116.226";

function item(transferId: string, status = "REALIZADO") {
  return {
    endToEndId: "E09089356202612010614abcdefghijk",
    chave: "ana@example.com",
    tipo: "SOLICITACAO",
    status,
    valor: "12.34",
    horario: "2026-12-01T06:14:00.000Z",
    gnExtras: {
      idEnvio: transferId.replaceAll("-", ""),
      erro: status === "NAO_REALIZADO" ? { codigo: "AC03", origem: "PSP", motivo: "x" } : undefined,
    },
  };
}

function delivery(body: unknown, options: { path?: string; hmac?: string | null; ip?: string | null } = {}): Request {
  const url = new URL(`http://example.com${options.path ?? "/webhooks/efi/pix"}`);
  const given = options.hmac === undefined ? hmac : options.hmac;
  if (given !== null) url.searchParams.set("hmac", given);
  const headers: Record<string, string> = { "content-type": "application/json" };
  const ip = options.ip === undefined ? efiIp : options.ip;
  if (ip !== null) headers["cf-connecting-ip"] = ip;
  return new Request(url, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("Efí webhooks", () => {
  it("answers 200 to a batch of several items and pokes each transfer named, once", async () => {
    const logs = captureLogEvents("efi_webhook");
    const [a, b] = [crypto.randomUUID(), crypto.randomUUID()];
    const response = await exports.default.fetch(delivery({ pix: [item(a), item(b, "NAO_REALIZADO"), item(a)] }));
    expect(response.status).toBe(200);
    const poked = () =>
      logsAbout(logs, a, b)
        .filter((r) => r.outcome === "poked")
        .map((r) => r.idempotency_key)
        .sort();
    await vi.waitFor(() => expect(poked()).toEqual([a, b].sort()));
  });

  it("arrives at the registered URL itself too (registered with ?ignorar=)", async () => {
    const logs = captureLogEvents("efi_webhook");
    const transferId = crypto.randomUUID();
    const response = await exports.default.fetch(delivery({ pix: [item(transferId)] }, { path: "/webhooks/efi" }));
    expect(response.status).toBe(200);
    await vi.waitFor(() =>
      expect(logsAbout(logs, transferId)).toMatchObject([{ idempotency_key: transferId, outcome: "poked", state: null }]),
    );
  });

  it("accepts the hmac with Efí's /pix appended (registered without &ignorar=): exactly that suffix", async () => {
    const logs = captureLogEvents("efi_webhook");
    const transferId = crypto.randomUUID();
    // Efí appends `/pix` to the whole registered URL, query string included.
    const appended = new Request(`http://example.com/webhooks/efi?hmac=${encodeURIComponent(hmac)}/pix`, {
      method: "POST",
      headers: { "content-type": "application/json", "cf-connecting-ip": efiIp },
      body: JSON.stringify({ pix: [item(transferId)] }),
    });
    const response = await exports.default.fetch(appended);
    expect(response.status).toBe(200);
    await vi.waitFor(() =>
      expect(logsAbout(logs, transferId)).toMatchObject([{ idempotency_key: transferId, outcome: "poked", state: null }]),
    );
    for (const other of [`${hmac}/pix/pix`, `${hmac}/pixx`, `${hmac}pix`]) {
      const refused = await exports.default.fetch(delivery({ pix: [item(transferId)] }, { path: "/webhooks/efi", hmac: other }));
      expect(refused.status, other).toBe(401);
      await refused.body?.cancel();
    }
  });

  it("answers 200 to Efí's registration test and pokes nothing", async () => {
    const logs = captureLogEvents("efi_webhook");
    const responses: Response[] = [];
    for (const path of ["/webhooks/efi", "/webhooks/efi/pix"]) {
      const response = await exports.default.fetch(delivery({ evento: "teste_webhook" }, { path }));
      expect(response.status).toBe(200);
      responses.push(response);
    }
    expect(logsOf(logs, responses).map((r) => r.outcome)).toEqual(["nothing_to_poke", "nothing_to_poke"]);
  });

  it("answers 200 and pokes nothing for items whose idEnvio is not one of ours", async () => {
    const logs = captureLogEvents("efi_webhook");
    const body = {
      pix: [
        { ...item(crypto.randomUUID()), gnExtras: { idEnvio: "outroPSP123" } },
        { endToEndId: "E1", status: "REALIZADO" },
      ],
    };
    const responses = [await exports.default.fetch(delivery(body)), await exports.default.fetch(delivery("not json"))];
    expect(responses.map((response) => response.status)).toEqual([200, 200]);
    expect(logsOf(logs, responses).map((r) => r.outcome)).toEqual(["nothing_to_poke", "nothing_to_poke"]);
  });

  it("an unknown but well-formed idEnvio pokes a saga that finds no transfer: nothing changes", async () => {
    const logs = captureLogEvents("efi_webhook");
    const transferId = crypto.randomUUID();
    const response = await exports.default.fetch(delivery({ pix: [item(transferId)] }));
    expect(response.status).toBe(200);
    await vi.waitFor(() => expect(logsAbout(logs, transferId)).toMatchObject([{ outcome: "poked", state: null }]));
  });

  it.each([
    ["missing", null],
    ["wrong", "not-the-secret"],
    ["a prefix of the secret", hmac.slice(0, 8)],
    ["empty", ""],
  ])("answers 401 problem+json and pokes nothing when the hmac is %s", async (_name, given) => {
    const logs = captureLogEvents("efi_webhook");
    const response = await exports.default.fetch(delivery({ pix: [item(crypto.randomUUID())] }, { hmac: given }));
    expect(response.status).toBe(401);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(logsOf(logs, [response])).toMatchObject([{ outcome: "rejected_hmac" }]);
  });

  it.each([
    ["another address", "198.51.100.7"],
    ["no CF-Connecting-IP", null],
  ])("answers 403 problem+json and pokes nothing from %s", async (_name, ip) => {
    const logs = captureLogEvents("efi_webhook");
    const response = await exports.default.fetch(delivery({ pix: [item(crypto.randomUUID())] }, { ip }));
    expect(response.status).toBe(403);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(logsOf(logs, [response])).toMatchObject([{ outcome: "rejected_ip" }]);
  });

  it("accepts any address of the allowlist", async () => {
    expect((await exports.default.fetch(delivery({ evento: "teste_webhook" }, { ip: "203.0.113.9" }))).status).toBe(200);
  });
});
