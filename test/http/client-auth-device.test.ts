// The device claim of client tokens (CONTRACT §2 "Devices"): required with DEVICE_RULES on, and
// then 1 to 128 printable ASCII characters; read but never required with it off; on by default
// with the sandbox off (production fails closed).
import { env } from "cloudflare:test";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { type ClientAuthBindings, type ClientAuthVariables, clientAuth } from "../../src/http/auth/client-auth.ts";
import { installProblemHandlers } from "../../src/web/problem.ts";
import { hs256Token, validClaims } from "./jwt-fixtures.ts";

const secret = env.JWT_SECRET ?? "";

function whoami(bindings: ClientAuthBindings, claims: Record<string, unknown>): Promise<Response> {
  const app = new Hono<{ Bindings: ClientAuthBindings; Variables: ClientAuthVariables }>();
  installProblemHandlers(app);
  app.use(clientAuth());
  app.get("/whoami", (c) => c.json({ account_id: c.get("accountId"), device_id: c.get("deviceId") }));
  return hs256Token(secret, validClaims(claims)).then((token) =>
    app.request("/whoami", { headers: { Authorization: `Bearer ${token}` } }, bindings),
  );
}

const on: ClientAuthBindings = { JWT_SECRET: secret, DEVICE_RULES: "on" };
const off: ClientAuthBindings = { JWT_SECRET: secret, DEVICE_RULES: "off" };

async function expectNoDevice(response: Response): Promise<void> {
  expect(response.status).toBe(401);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  expect(response.headers.get("WWW-Authenticate")).toBe('Bearer realm="pix-cashout", error="invalid_token"');
  expect(((await response.json()) as { detail: string }).detail).toMatch(/device_id/);
}

describe("the device claim with DEVICE_RULES on", () => {
  it("answers 401 problem+json for a token without device_id", async () => {
    await expectNoDevice(await whoami(on, {}));
  });

  it.each([
    ["empty", ""],
    ["129 characters", "d".repeat(129)],
    ["not ASCII", "telefone-joão"],
    ["a control character", "phone\u0007"],
    ["a number", 42],
    ["an object", { id: "phone-1" }],
  ])("answers 401 for a device_id that is %s", async (_label, deviceId) => {
    await expectNoDevice(await whoami(on, { device_id: deviceId }));
  });

  it("passes a device_id of 1 and of 128 printable characters on to the route", async () => {
    for (const deviceId of ["x", `${"~".repeat(126)} !`]) {
      const response = await whoami(on, { device_id: deviceId });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ account_id: "acct_1", device_id: deviceId });
    }
  });

  it("is on when DEVICE_RULES is unset and the sandbox is off, and off when the sandbox is on", async () => {
    await expectNoDevice(await whoami({ JWT_SECRET: secret }, {}));
    expect((await whoami({ JWT_SECRET: secret, SANDBOX_PROVIDER: "on" }, {})).status).toBe(200);
  });
});

describe("the device claim with DEVICE_RULES off", () => {
  it("requires no device_id, and ignores one that is not valid", async () => {
    expect(await (await whoami(off, {})).json()).toEqual({ account_id: "acct_1", device_id: null });
    expect(await (await whoami(off, { device_id: "d".repeat(129) })).json()).toEqual({ account_id: "acct_1", device_id: null });
  });

  it("still reads a valid one, so a device can be registered before the rules are switched on", async () => {
    expect(await (await whoami(off, { device_id: "phone-1" })).json()).toEqual({ account_id: "acct_1", device_id: "phone-1" });
  });
});
