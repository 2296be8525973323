// The Efí adapter in workerd against a fake Efí (./fake-efi.ts): what it asks, in which shape,
// with which token, and how it reads 401s, timeouts, a 409 on a resend and the two kinds of 404.
import { describe, expect, it } from "vitest";
import { createEfiProvider } from "../../../src/provider/efi/adapter.ts";
import { credentialsRefusalCacheMs, type TokenCache } from "../../../src/provider/efi/token.ts";
import type { Fetcher } from "../../../src/provider/http-exchange.ts";
import type { PixOrder } from "../../../src/provider/port.ts";
import { FakeEfi } from "./fake-efi.ts";

const baseUrl = "https://efi.test/efi";
const timeoutMs = 200;

/** `between`: what stands between the adapter and the fake Efí (by default nothing). */
function setup(overrides: { nowMs?: () => number; between?: (efi: FakeEfi) => Fetcher } = {}) {
  const { between, ...options } = overrides;
  const efi = new FakeEfi();
  const tokenCache: TokenCache = new Map();
  const provider = createEfiProvider({
    baseUrl,
    clientId: "client-id",
    clientSecret: "client-secret",
    payerKey: "pagador@fintech.test",
    timeoutMs,
    fetcher: between === undefined ? efi.fetcher : between(efi),
    tokenCache,
    ...options,
  });
  return { efi, provider, tokenCache };
}

function order(overrides: Partial<PixOrder> = {}): PixOrder {
  return {
    idempotencyKey: crypto.randomUUID(),
    amountCents: 1234,
    pixKey: "ana@example.com",
    pixKeyType: "email",
    description: "aluguel",
    ...overrides,
  };
}

const idEnvio = (o: PixOrder) => o.idempotencyKey.replaceAll("-", "");

describe("Efí adapter", () => {
  it("sends with Efí's shapes: Basic for the token, Bearer for the PUT, valor in reais, idEnvio without dashes", async () => {
    const seen: Request[] = [];
    const efi = new FakeEfi();
    const provider = createEfiProvider({
      baseUrl: `${baseUrl}/`,
      clientId: "client-id",
      clientSecret: "client-secret",
      payerKey: "pagador@fintech.test",
      timeoutMs,
      tokenCache: new Map(),
      fetcher: async (request) => {
        seen.push(request.clone());
        return efi.fetcher(request);
      },
    });
    const o = order({ amountCents: 29 });
    expect(await provider.send(o)).toMatchObject({ kind: "accepted", status: "processing", endToEndId: expect.stringMatching(/^E/) });
    const [tokenRequest, sendRequest] = seen;
    expect(tokenRequest?.url).toBe(`${baseUrl}/oauth/token`);
    expect(tokenRequest?.headers.get("authorization")).toBe(`Basic ${btoa("client-id:client-secret")}`);
    expect(await tokenRequest?.json()).toEqual({ grant_type: "client_credentials" });
    expect(sendRequest?.method).toBe("PUT");
    expect(sendRequest?.url).toBe(`${baseUrl}/v3/gn/pix/${idEnvio(o)}`);
    expect(sendRequest?.headers.get("authorization")).toBe("Bearer token-1");
    expect(await sendRequest?.json()).toEqual({
      valor: "0.29",
      pagador: { chave: "pagador@fintech.test", infoPagador: "aluguel" },
      favorecido: { chave: "ana@example.com" },
    });
  });

  it("reuses one token until shortly before it expires, then asks for a new one", async () => {
    let nowMs = 1_000_000;
    const { efi, provider } = setup({ nowMs: () => nowMs });
    efi.knobs.tokenLifetimeSeconds = 600;
    const o = order();
    await provider.send(o);
    await provider.status(o);
    expect(efi.tokensIssued).toBe(1);
    nowMs += 600_000 - 60_000 - 1; // just before the renewal point (a minute before expiry)
    await provider.status(o);
    expect(efi.tokensIssued).toBe(1);
    nowMs += 1;
    await provider.status(o);
    expect(efi.tokensIssued).toBe(2);
  });

  it("asks for a fresh token once on a 401 and repeats the call with it", async () => {
    const { efi, provider } = setup();
    const o = order();
    await provider.send(o);
    efi.revokeTokens();
    efi.settle(idEnvio(o));
    expect(await provider.status(o)).toMatchObject({ kind: "confirmed" });
    expect(efi.tokensIssued).toBe(2);
  });

  it("keeps the refused answer's evidence beside the retry's after a 401", async () => {
    const { efi, provider } = setup();
    await provider.send(order());
    efi.knobs.refuseNextCalls = 1;
    const sent = await provider.send(order());
    expect(sent).toMatchObject({
      kind: "accepted",
      evidence: { httpStatus: 201, earlier: [{ httpStatus: 401, body: { nome: "nao_autorizado", mensagem: "token inválido" } }] },
    });
  });

  it("asks for one token for a cold burst of sends: one request in flight, shared", async () => {
    const { efi, provider } = setup();
    const sent = await Promise.all(Array.from({ length: 10 }, () => provider.send(order())));
    expect(sent.map((s) => s.kind)).toEqual(Array(10).fill("accepted"));
    expect(efi.tokensIssued).toBe(1);
    expect(efi.requests.filter((r) => r.path === "/oauth/token")).toHaveLength(1);
  });

  it("a second 401 in a row is unknown with an alert, never a rejection", async () => {
    const { efi, provider } = setup();
    efi.knobs.refuseNextCalls = 2;
    const sent = await provider.send(order());
    expect(sent).toMatchObject({ kind: "unknown", why: "http_401", alert: "credentials_refused" });
    expect(efi.tokensIssued).toBe(2);
    expect(efi.held.size).toBe(0);
  });

  it("a refused token request is unknown with an alert, and nothing is sent", async () => {
    const { efi, provider } = setup();
    efi.knobs.refuseTokens = true;
    expect(await provider.send(order())).toMatchObject({ kind: "unknown", why: "token_http_401", alert: "credentials_refused" });
    expect(await provider.status(order())).toMatchObject({ kind: "unknown", why: "token_http_401", alert: "credentials_refused" });
    expect(efi.requests.every((r) => r.path === "/oauth/token")).toBe(true);
  });

  it("a refused token request is remembered for a minute: no new token request at every step", async () => {
    let clockMs = Date.now();
    const { efi, provider } = setup({ nowMs: () => clockMs });
    efi.knobs.refuseTokens = true;
    expect(await provider.send(order())).toMatchObject({ kind: "unknown", why: "token_http_401", alert: "credentials_refused" });
    clockMs += credentialsRefusalCacheMs - 1;
    const again = await provider.status(order());
    expect(again).toMatchObject({ kind: "unknown", why: "token_http_401", alert: "credentials_refused", evidence: { httpStatus: 401 } });
    expect(again.evidence.error).toContain("not asked again before");
    expect(efi.requests).toHaveLength(1);
    // A minute on, Efí is asked again (a person may have fixed it).
    efi.knobs.refuseTokens = false;
    clockMs += 1;
    expect(await provider.send(order())).toMatchObject({ kind: "accepted" });
  });

  it("a 401 with a fresh token is remembered: for a minute no call and no token request is made", async () => {
    let clockMs = Date.now();
    const { efi, provider } = setup({ nowMs: () => clockMs });
    efi.knobs.refuseNextCalls = 2;
    expect(await provider.send(order())).toMatchObject({ kind: "unknown", why: "http_401", alert: "credentials_refused" });
    const asked = efi.requests.length;
    expect(await provider.send(order())).toMatchObject({ kind: "unknown", why: "http_401", alert: "credentials_refused" });
    expect(await provider.status(order())).toMatchObject({ kind: "unknown", why: "http_401", alert: "credentials_refused" });
    expect(efi.requests).toHaveLength(asked);
    clockMs += credentialsRefusalCacheMs;
    expect(await provider.send(order())).toMatchObject({ kind: "accepted" });
  });

  it("a 403 refuses one operation: remembered for it, the others carry on", async () => {
    let statusCalls = 0;
    // Our application lacks the scope to read sent Pix: Efí answers those calls 403.
    const lackingScope = (efi: FakeEfi) => async (request: Request) => {
      if (!new URL(request.url).pathname.includes("/enviados/")) return efi.fetcher(request);
      statusCalls += 1;
      return Response.json({ nome: "acesso_negado", mensagem: "escopo" }, { status: 403 });
    };
    const { provider } = setup({ between: lackingScope });
    expect(await provider.status(order())).toMatchObject({ kind: "unknown", why: "http_403", alert: "credentials_refused" });
    expect(await provider.status(order())).toMatchObject({ kind: "unknown", why: "http_403", alert: "credentials_refused" });
    expect(statusCalls).toBe(1);
    expect(await provider.send(order())).toMatchObject({ kind: "accepted" });
  });

  it("a send that outlasts the timeout is unknown", async () => {
    const { efi, provider } = setup();
    efi.knobs.hangSends = true;
    const sent = await provider.send(order());
    expect(sent).toMatchObject({ kind: "unknown", why: "timeout", evidence: { error: `timeout after ${timeoutMs} ms` } });
  });

  it("a token request that outlasts the timeout is unknown, and nothing is sent", async () => {
    const { efi, provider } = setup();
    efi.knobs.hangTokens = true;
    const sent = await provider.send(order());
    expect(sent).toMatchObject({ kind: "unknown", why: "token_timeout", evidence: { error: `timeout after ${timeoutMs} ms` } });
    expect(sent.alert).toBeUndefined();
    expect(efi.requests.every((r) => r.path === "/oauth/token")).toBe(true);
  });

  it("a status check that outlasts the timeout is unknown", async () => {
    const { efi, provider } = setup();
    const o = order();
    await provider.send(o);
    efi.knobs.hangStatus = true;
    expect(await provider.status(o)).toMatchObject({
      kind: "unknown",
      why: "timeout",
      evidence: { error: `timeout after ${timeoutMs} ms` },
    });
  });

  it("a resend of an id Efí already holds answers 409: it exists, unknown, never a failure", async () => {
    const { provider } = setup();
    const o = order();
    expect(await provider.send(o)).toMatchObject({ kind: "accepted" });
    expect(await provider.send(o)).toMatchObject({ kind: "unknown", why: "already_exists", evidence: { httpStatus: 409 } });
  });

  it("Efí's PixEnviadoNaoEncontrado is not found (settled by a resend); a gateway's 404 is unknown", async () => {
    const { efi, provider } = setup();
    expect(await provider.status(order())).toMatchObject({ kind: "not_found", afterGrace: "resend" });
    efi.knobs.notFound = "gateway";
    expect(await provider.status(order())).toMatchObject({ kind: "unknown", why: "http_404_not_efi" });
  });

  it("reads the status of a held send: processing, then confirmed with its end-to-end id", async () => {
    const { efi, provider } = setup();
    const o = order();
    const sent = await provider.send(o);
    expect(await provider.status(o)).toMatchObject({ kind: "processing" });
    efi.settle(idEnvio(o));
    const endToEndId = sent.kind === "accepted" ? sent.endToEndId : null;
    expect(await provider.status(o)).toMatchObject({ kind: "confirmed", endToEndId });
  });

  it("keeps the token out of the evidence", async () => {
    const { efi, provider } = setup();
    efi.knobs.tokenLifetimeSeconds = 0; // an invalid lifetime: the token answer is malformed
    const sent = await provider.send(order());
    expect(sent).toMatchObject({ kind: "unknown", why: "token_malformed_body", evidence: { body: "[token]" } });
  });
});
