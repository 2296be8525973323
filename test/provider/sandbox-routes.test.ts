// The sandbox's own HTTP surface: absent unless enabled, inspection endpoints, input checks.
import { exports } from "cloudflare:workers";
import { afterAll, describe, expect, it } from "vitest";
import { dynamicBrCode } from "../support/br-codes.ts";
import { testPool } from "../support/db.ts";
import { drainSandboxWebhooks, orderFor, sandboxAdapter, sandboxBaseUrl, sandboxEnv, sandboxFetcher } from "./support.ts";

afterAll(drainSandboxWebhooks);

const sandboxOffPool = testPool(1);
afterAll(() => sandboxOffPool.end());

const enabledEnv = sandboxEnv({ SANDBOX_CONFIRM_MS: "60000" });
const call = sandboxFetcher(enabledEnv);

describe("sandbox routes", () => {
  it("answers 404 problem+json on every /sandbox path when SANDBOX_PROVIDER is not on", async () => {
    for (const value of ["off", undefined, "ON"]) {
      const disabled = sandboxFetcher(sandboxEnv({ SANDBOX_PROVIDER: value }));
      for (const [method, path] of [
        ["PUT", "/pix/abc"],
        ["GET", "/pix/abc"],
        ["GET", "/payments"],
        ["GET", "/payments/abc"],
      ] as const) {
        const response = await disabled(new Request(`${sandboxBaseUrl}${path}`, { method, body: method === "PUT" ? "{}" : null }));
        expect(response.status).toBe(404);
        expect(response.headers.get("content-type")).toBe("application/problem+json");
        expect(await response.json()).toMatchObject({ status: 404, title: expect.any(String), type: expect.stringMatching(/not-found$/) });
      }
    }
  });

  it("answers 404 problem+json for the test clock when SANDBOX_PROVIDER is not on, moving nothing", async () => {
    const disabled = sandboxFetcher(sandboxEnv({ SANDBOX_PROVIDER: "off" }));
    for (const method of ["GET", "POST"] as const) {
      const body = method === "POST" ? JSON.stringify({ advance_ms: 1000 }) : null;
      const response = await disabled(
        new Request("http://sandbox.test/sandbox/clock", { method, body, headers: { "content-type": "application/json" } }),
      );
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
    }
    const { rows } = await sandboxOffPool.query<{ count: string }>("SELECT count(*) FROM test_clock");
    expect(Number(rows[0]?.count)).toBe(0);
  });

  it("is reachable through the Worker itself at /sandbox/provider when enabled locally", async () => {
    const response = await exports.default.fetch("http://example.com/sandbox/provider/payments");
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ data: expect.any(Array) });
  });

  it("shows 404 problem+json for a payment it never saw", async () => {
    const response = await call(new Request(`${sandboxBaseUrl}/payments/${crypto.randomUUID()}`));
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
  });

  it("lists the payments it holds, newest first", async () => {
    const provider = sandboxAdapter(enabledEnv, { timeoutMs: 5_000 });
    const older = orderFor("gui@example.com");
    const newer = orderFor("reject@sandbox.test");
    await provider.send(older);
    await provider.send(newer);
    const response = await call(new Request(`${sandboxBaseUrl}/payments`));
    const { data } = (await response.json()) as { data: { idempotency_key: string; made: boolean; status: string }[] };
    const keys = data.map((payment) => payment.idempotency_key);
    expect(keys).toContain(older.idempotencyKey);
    expect(keys.indexOf(newer.idempotencyKey)).toBeLessThan(keys.indexOf(older.idempotencyKey));
    expect(data.find((payment) => payment.idempotency_key === older.idempotencyKey)).toMatchObject({ made: true, status: "processing" });
    expect(data.find((payment) => payment.idempotency_key === newer.idempotencyKey)).toMatchObject({ made: false, status: "rejected" });
  });

  it("answers 400 {code} to a send it cannot read, and records nothing", async () => {
    const key = crypto.randomUUID();
    const response = await call(
      new Request(`${sandboxBaseUrl}/pix/${key}`, {
        method: "PUT",
        body: JSON.stringify({ amount_cents: -1, pix_key: "x", pix_key_type: "email" }),
      }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ code: "invalid_request" });
    expect((await call(new Request(`${sandboxBaseUrl}/payments/${key}`))).status).toBe(404);
  });

  it("answers 409 idempotency_conflict to a repeat with another amount, keeping the first payment", async () => {
    const order = orderFor("hana@example.com");
    const put = (amountCents: number) =>
      call(
        new Request(`${sandboxBaseUrl}/pix/${order.idempotencyKey}`, {
          method: "PUT",
          body: JSON.stringify({ amount_cents: amountCents, pix_key: order.pixKey, pix_key_type: order.pixKeyType, description: null }),
        }),
      );
    expect((await put(2500)).status).toBe(201);
    const conflict = await put(2600);
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toEqual({ code: "idempotency_conflict" });
    const view = await call(new Request(`${sandboxBaseUrl}/payments/${order.idempotencyKey}`));
    expect(await view.json()).toMatchObject({ send_calls: 2, made: true });
  });
});

describe("sandbox charges (PATCH /sandbox/provider/charges/:txid)", () => {
  const json = (method: string, path: string, body: unknown) =>
    call(new Request(`${sandboxBaseUrl}${path}`, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));

  it("lets the receiver change a live charge: resolve and the send then see it, and a removed one is refused", async () => {
    const brCode = dynamicBrCode(`cobranca-${crypto.randomUUID().slice(0, 8)}`, 900);
    const { txid } = await (await json("POST", "/br-codes/resolve", { br_code: brCode })).json<{ txid: string }>();
    const changed = await json("PATCH", `/charges/${txid}`, { amount_cents: 1_900, pix_key: "Mule@Example.com", pix_key_type: "email" });
    expect(await changed.json()).toEqual({
      txid,
      amount_cents: 1_900,
      pix_key: "mule@example.com",
      pix_key_type: "email",
      status: "active",
      revision: 1,
    });
    expect(await (await json("POST", "/br-codes/resolve", { br_code: brCode })).json()).toMatchObject({
      amount_cents: 1_900,
      pix_key: "mule@example.com",
    });
    const atTheOldAmount = await json("PUT", `/pix/${crypto.randomUUID()}`, { amount_cents: 900, br_code: brCode });
    expect(atTheOldAmount.status).toBe(422);
    expect(await atTheOldAmount.json()).toEqual({ code: "amount_mismatch" });

    expect((await json("PATCH", `/charges/${txid}`, { status: "removed" })).status).toBe(200);
    const resolved = await json("POST", "/br-codes/resolve", { br_code: brCode });
    expect(resolved.status).toBe(422);
    expect(await resolved.json()).toEqual({ code: "removed" });
    const paid = await json("PUT", `/pix/${crypto.randomUUID()}`, { amount_cents: 1_900, br_code: brCode });
    expect(await paid.json()).toEqual({ code: "removed" });
  });

  it("answers 400 {code} to a change it cannot read", async () => {
    for (const body of [{ pix_key: "mule@example.com" }, { amount_cents: 0 }, { status: "paid" }, { other: 1 }]) {
      const response = await json("PATCH", "/charges/sandbox0123", body);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ code: "invalid_request" });
    }
  });
});
