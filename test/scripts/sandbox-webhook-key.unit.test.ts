// npm start's sandbox key (scripts/lib/sandbox-webhook-key.ts): whatever WEBHOOK_SECRET a run
// sets, the sandbox signs with a key the Worker accepts, or npm start stops and says why.
import { describe, expect, it } from "vitest";
import { planSandboxWebhookKey } from "../../scripts/lib/sandbox-webhook-key.ts";
import { exampleSecretValues } from "../../src/config/secrets.ts";

const exampleKey = exampleSecretValues.find((value) => value.startsWith("whsec_bG9jYWwtZGV2LXdlYmhvb2st")) ?? "";
const runKey = `whsec_${btoa("a-suite-of-its-own-0123456789abcdef")}`;
const nextKey = `whsec_${btoa("the-next-key-in-rotation-0123456789")}`;
/** .dev.vars as an older .dev.vars.example made it: the sandbox key copied beside WEBHOOK_SECRET. */
const oldDevVars = new Map([
  ["WEBHOOK_SECRET", exampleKey],
  ["SANDBOX_WEBHOOK_SECRET", exampleKey],
]);

describe("the sandbox's webhook key under npm start", () => {
  it("is WEBHOOK_SECRET's first key when the environment sets WEBHOOK_SECRET, even over an old .dev.vars", () => {
    const plan = planSandboxWebhookKey(new Map([["WEBHOOK_SECRET", `${runKey} ${nextKey}`]]), oldDevVars);
    expect(plan).toEqual({ ok: true, vars: new Map([["SANDBOX_WEBHOOK_SECRET", runKey]]) });
  });

  it("is left alone when set explicitly to one of WEBHOOK_SECRET's keys", () => {
    const overrides = new Map([
      ["WEBHOOK_SECRET", `${runKey} ${nextKey}`],
      ["SANDBOX_WEBHOOK_SECRET", nextKey],
    ]);
    expect(planSandboxWebhookKey(overrides, oldDevVars)).toEqual({ ok: true, vars: new Map() });
  });

  it("stops npm start, saying why, when set explicitly to a key the Worker would refuse", () => {
    const fromEnvironment = planSandboxWebhookKey(
      new Map([
        ["WEBHOOK_SECRET", runKey],
        ["SANDBOX_WEBHOOK_SECRET", nextKey],
      ]),
      oldDevVars,
    );
    expect(fromEnvironment).toMatchObject({ ok: false, message: expect.stringContaining("is not one of WEBHOOK_SECRET's keys") });
    // A key chosen in .dev.vars (not the example's) is explicit too.
    const fromDevVars = planSandboxWebhookKey(new Map([["WEBHOOK_SECRET", runKey]]), new Map([["SANDBOX_WEBHOOK_SECRET", nextKey]]));
    expect(fromDevVars).toMatchObject({ ok: false, message: expect.stringContaining("from .dev.vars") });
  });

  it("does nothing with the sandbox off", () => {
    const overrides = new Map([
      ["SANDBOX_PROVIDER", "off"],
      ["WEBHOOK_SECRET", runKey],
      ["SANDBOX_WEBHOOK_SECRET", nextKey],
    ]);
    expect(planSandboxWebhookKey(overrides, oldDevVars)).toEqual({ ok: true, vars: new Map() });
  });
});
