// The provider's statement read to its end: the generic API's cursor and Efí's page numbers,
// each against the sandbox and against scripted answers (a page that fails, a cursor that
// repeats, too many pages), and the shapes each maps back to (transfer id, cents, returns).
import { describe, expect, it } from "vitest";
import { sleep } from "../../src/lib/sleep.ts";
import { createEfiProvider } from "../../src/provider/efi/adapter.ts";
import { createHttpProvider } from "../../src/provider/http-provider.ts";
import type { StatementItem } from "../../src/provider/port.ts";
import { readStatement } from "../../src/provider/statement.ts";
import { FakeEfi } from "./efi/fake-efi.ts";
import { orderFor, sandboxAdapter, sandboxEnv, sandboxFetcher } from "./support.ts";

const hourMs = 60 * 60 * 1000;

function scriptedGeneric(pages: Record<string, Response | (() => Response)>) {
  const asked: string[] = [];
  const provider = createHttpProvider({
    baseUrl: "https://psp.test/v1",
    token: "t",
    timeoutMs: 500,
    fetcher: async (request) => {
      const url = new URL(request.url);
      const cursor = url.searchParams.get("cursor") ?? "";
      asked.push(`${url.pathname}?from=${url.searchParams.get("from")}&to=${url.searchParams.get("to")}&cursor=${cursor}`);
      const answer = pages[cursor];
      if (answer === undefined) return Response.json({ code: "not_found" }, { status: 404 });
      return typeof answer === "function" ? answer() : answer.clone();
    },
  });
  return { provider, asked };
}

const item = (key: string, extra: Record<string, unknown> = {}) => ({
  idempotency_key: key,
  status: "confirmed",
  amount_cents: 1000,
  end_to_end_id: `E12345678202612011200${key.padEnd(11, "0").slice(0, 11)}`,
  ...extra,
});

describe("the generic API's statement", () => {
  const window = { fromMs: Date.parse("2026-12-01T03:00:00Z"), toMs: Date.parse("2026-12-02T03:00:00Z") };

  it("follows next_cursor to the last page and keeps every item with its returns", async () => {
    const { provider, asked } = scriptedGeneric({
      "": Response.json({ data: [item("a"), item("b")], next_cursor: "p2" }),
      p2: Response.json({
        data: [item("c", { returns: [{ id: "D1", amount_cents: 400, reason: "MD06", at: "2026-12-01T15:00:00Z" }] })],
        next_cursor: null,
      }),
    });
    const statement = await provider.statement(window);
    expect(statement).toMatchObject({ complete: true, pages: 2 });
    expect(statement.items.map((i) => i.idempotencyKey)).toEqual(["a", "b", "c"]);
    expect(statement.items[2]?.returns).toEqual([
      { id: "D1", amountCents: 400, reason: "returned_by_recipient", atMs: Date.parse("2026-12-01T15:00:00Z") },
    ]);
    expect(asked).toEqual([
      "/v1/pix?from=2026-12-01T03:00:00.000Z&to=2026-12-02T03:00:00.000Z&cursor=",
      "/v1/pix?from=2026-12-01T03:00:00.000Z&to=2026-12-02T03:00:00.000Z&cursor=p2",
    ]);
  });

  it("is incomplete, with what it read, when a later page fails", async () => {
    const { provider } = scriptedGeneric({
      "": Response.json({ data: [item("a")], next_cursor: "p2" }),
      p2: Response.json({ code: "unavailable" }, { status: 503 }),
    });
    const statement = await provider.statement(window);
    expect(statement).toMatchObject({ complete: false, why: "http_503", pages: 1 });
    expect(statement.items.map((i) => i.idempotencyKey)).toEqual(["a"]);
  });

  it("is incomplete when a page cannot be read or its returns exceed the amount", async () => {
    const malformed = scriptedGeneric({ "": Response.json({ data: [{ ...item("a"), amount_cents: "10" }] }) });
    expect(await malformed.provider.statement(window)).toMatchObject({ complete: false, why: "malformed_body" });
    const over = scriptedGeneric({
      "": Response.json({ data: [item("a", { returns: [{ id: "D1", amount_cents: 1001, reason: "MD06", at: "2026-12-01T15:00:00Z" }] })] }),
    });
    expect(await over.provider.statement(window)).toMatchObject({ complete: false, why: "returns_exceed_amount" });
  });

  it("stops on a cursor that repeats instead of paging forever", async () => {
    const { provider } = scriptedGeneric({
      "": Response.json({ data: [item("a")], next_cursor: "p2" }),
      p2: Response.json({ data: [item("b")], next_cursor: "p2" }),
    });
    expect(await provider.statement(window)).toMatchObject({ complete: false, why: "cursor_repeated" });
  });

  it("reads at most the page cap", async () => {
    const statement = await readStatement(0, async (page) => ({ ok: true, items: [] as StatementItem[], next: page + 1 }), 5);
    expect(statement).toMatchObject({ complete: false, why: "too_many_pages", pages: 5 });
  });

  it("lists every payment the sandbox holds in the window, over several pages", async () => {
    const testEnv = sandboxEnv({ SANDBOX_CONFIRM_MS: "0" });
    const provider = sandboxAdapter(testEnv, { timeoutMs: 10_000 });
    const fromMs = Date.now() - 1;
    const orders = Array.from({ length: 210 }, (_, n) => orderFor(`pagina-${n}@example.com`, { amountCents: 100 + n }));
    // Ten at a time: 210 sends one by one outlast the test's 30 s on a loaded machine.
    for (let i = 0; i < orders.length; i += 10) {
      const sent = await Promise.all(orders.slice(i, i + 10).map((order) => provider.send(order)));
      expect(sent.map((outcome) => outcome.kind)).toEqual(sent.map(() => "accepted"));
    }
    const rejected = orderFor("reject@sandbox.test");
    await provider.send(rejected);
    const lost = orderFor("timeout-lost@sandbox.test");
    const statement = await provider.statement({ fromMs, toMs: Date.now() + hourMs });
    expect(statement).toMatchObject({ complete: true });
    if (!statement.complete) throw new Error("incomplete");
    expect(statement.pages).toBeGreaterThanOrEqual(3);
    const byKey = new Map(statement.items.map((i) => [i.idempotencyKey, i]));
    for (const order of orders) {
      expect(byKey.get(order.idempotencyKey)).toMatchObject({
        status: "confirmed",
        amountCents: order.amountCents,
        returnsUnlisted: false,
      });
    }
    expect(byKey.get(rejected.idempotencyKey)?.status).toBe("rejected");
    expect(byKey.has(lost.idempotencyKey)).toBe(false);
    expect(new Set(statement.items.map((i) => i.idempotencyKey)).size).toBe(statement.items.length);
  });

  it("the sandbox refuses a window over 24 hours", async () => {
    const provider = sandboxAdapter(sandboxEnv(), { timeoutMs: 2_000 });
    const statement = await provider.statement({ fromMs: Date.now() - 25 * hourMs, toMs: Date.now() });
    expect(statement).toMatchObject({ complete: false, why: "http_400" });
  });
});

describe("Efí's statement", () => {
  function efiProvider(efi: FakeEfi) {
    return createEfiProvider({
      baseUrl: "https://efi.test/efi",
      clientId: "id",
      clientSecret: "secret",
      payerKey: "pagador@fintech.test",
      timeoutMs: 500,
      fetcher: efi.fetcher,
      tokenCache: new Map(),
    });
  }
  const window = { fromMs: Date.parse("2026-12-01T03:00:00Z"), toMs: Date.parse("2026-12-02T03:00:00Z") };

  it("asks page after page (paginacao.paginaAtual) and maps idEnvio, valor and devolucoes back", async () => {
    const efi = new FakeEfi();
    const provider = efiProvider(efi);
    const orders = Array.from({ length: 250 }, (_, n) => orderFor(`cliente-${n}@example.com`, { amountCents: 1000 + n }));
    // Ten at a time: 210 sends one by one outlast the test's 30 s on a loaded machine.
    for (let i = 0; i < orders.length; i += 10) {
      const sent = await Promise.all(orders.slice(i, i + 10).map((order) => provider.send(order)));
      expect(sent.map((outcome) => outcome.kind)).toEqual(sent.map(() => "accepted"));
    }
    const returned = orders[7];
    if (returned === undefined) throw new Error("no order");
    const held = efi.held.get(returned.idempotencyKey.replaceAll("-", ""));
    if (held === undefined) throw new Error("not held");
    held.status = "REALIZADO";
    held.devolucoes = [
      {
        id: "D123",
        rtrId: "D09089356202612011500abcdefghij",
        valor: "3.00",
        natureza: "MED_FRAUDE",
        status: "DEVOLVIDO",
        horario: { liquidacao: "2026-12-01T15:00:00Z" },
      },
    ];

    const statement = await provider.statement(window);
    expect(statement).toMatchObject({ complete: true, pages: 3 });
    const lists = efi.requests.filter((r) => r.path === "/v2/gn/pix/enviados");
    expect(lists).toHaveLength(3);
    expect(statement.items).toHaveLength(250);
    expect(statement.items.map((i) => i.idempotencyKey)).toEqual(orders.map((o) => o.idempotencyKey));
    expect(statement.items[0]).toMatchObject({ status: "processing", amountCents: 1000, returns: [] });
    expect(statement.items[7]).toMatchObject({
      status: "confirmed",
      amountCents: 1007,
      returns: [{ id: "D09089356202612011500abcdefghij", amountCents: 300, reason: "fraud", atMs: Date.parse("2026-12-01T15:00:00Z") }],
    });
  });

  it("is incomplete, with the pages it read, when one fails", async () => {
    const efi = new FakeEfi();
    const provider = efiProvider(efi);
    for (let n = 0; n < 150; n++) await provider.send(orderFor(`x-${n}@example.com`));
    efi.knobs.failListFromPage = 1;
    const statement = await provider.statement(window);
    expect(statement).toMatchObject({ complete: false, why: "http_503", pages: 1 });
    expect(statement.items).toHaveLength(100);
  });

  it("reads the sandbox's Efí statement with its returns, over pages", async () => {
    const testEnv = sandboxEnv({ SANDBOX_CONFIRM_MS: "0" });
    const provider = createEfiProvider({
      baseUrl: "http://sandbox.test/sandbox/efi",
      clientId: "",
      clientSecret: "",
      payerKey: "pagador@sandbox.test",
      timeoutMs: 10_000,
      fetcher: sandboxFetcher({ ...testEnv, EFI_CLIENT_ID: undefined, EFI_CLIENT_SECRET: undefined }),
      tokenCache: new Map(),
    });
    const fromMs = Date.now() - 1;
    const orders = Array.from({ length: 100 }, (_, n) => orderFor(`efi-pagina-${n}@example.com`));
    // Ten at a time: 210 sends one by one outlast the test's 30 s on a loaded machine.
    for (let i = 0; i < orders.length; i += 10) {
      const sent = await Promise.all(orders.slice(i, i + 10).map((order) => provider.send(order)));
      expect(sent.map((outcome) => outcome.kind)).toEqual(sent.map(() => "accepted"));
    }
    const returned = orderFor("returned@sandbox.test", { amountCents: 900 });
    expect((await provider.send(returned)).kind).toBe("accepted");
    // Refused before it left: listed with a null endToEndId, which must not spoil the page.
    const refused = orderFor("reject@sandbox.test");
    expect((await provider.send(refused)).kind).toBe("rejected");
    await sleep(20);
    const statement = await provider.statement({ fromMs, toMs: Date.now() + hourMs });
    expect(statement).toMatchObject({ complete: true, pages: 2 });
    const byKey = new Map(statement.items.map((i) => [i.idempotencyKey, i]));
    for (const order of orders) expect(byKey.get(order.idempotencyKey)?.status).toBe("confirmed");
    expect(byKey.get(returned.idempotencyKey)).toMatchObject({
      status: "confirmed",
      amountCents: 900,
      returns: [{ amountCents: 900, reason: "returned_by_recipient" }],
    });
    expect(byKey.get(refused.idempotencyKey)).toMatchObject({ status: "rejected", endToEndId: null });
  });
});
