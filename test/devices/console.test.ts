// The console with DEVICE_RULES on: a transfer's page names the device it came from and what the
// new-device cap made of it, and the account page shows when each device was last used.
import { describe, expect, it } from "vitest";
import { getPage, login } from "../console/support.ts";
import { fundedAccount, type TransferJson } from "../support/api.ts";
import { newDeviceId, opsRegister, transferFrom } from "../support/devices.ts";

const heldKey = { pix_key: "processing@sandbox.test", pix_key_type: "email" };

describe("the console's devices with DEVICE_RULES on", () => {
  it("shows each transfer's device, registered or capped, and each device's last use", async () => {
    const cookie = await login();
    const accountId = await fundedAccount(100_000);
    const known = newDeviceId("known");
    const stranger = newDeviceId("stranger");
    expect((await opsRegister(accountId, known, "Known phone")).status).toBe(201);
    const fromKnown = await (await transferFrom(accountId, known, { amount_cents: 1_000, ...heldKey })).json<
      TransferJson & { created_at: string }
    >();
    const fromStranger = await (await transferFrom(accountId, stranger, { amount_cents: 1_000, ...heldKey })).json<TransferJson>();

    const knownPage = await (await getPage(`/console/transfers/${fromKnown.id}`, cookie)).text();
    expect(knownPage).toContain(`<code>${known}</code> (registered)`);
    const strangerPage = await (await getPage(`/console/transfers/${fromStranger.id}`, cookie)).text();
    expect(strangerPage).toContain(`<code>${stranger}</code> (not registered: capped as a new device)`);

    const accountPage = await (await getPage(`/console/accounts/${accountId}`, cookie)).text();
    expect(accountPage).toContain("Transfers from any other device, or one still pending, are capped as a new device");
    const lastUsed = fromKnown.created_at.replace(/^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2}).*$/, "$1 $2 UTC");
    expect(accountPage).toContain(lastUsed);
  });
});
