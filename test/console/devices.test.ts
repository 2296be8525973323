// The account page lists the account's devices: each with its state now (registered since, or
// pending until), who registered it, and when a transfer last came from it; device ids are
// printable ASCII a client chose, so they are shown as text, never as markup.
import { describe, expect, it } from "vitest";
import { call, clientHeaders, createTransfer, fundedAccount, opsCall, supportDeviceId } from "../support/api.ts";
import { getPage, login } from "./support.ts";

describe("the account page's devices", () => {
  it("lists each device with its state, who registered it and its last use", async () => {
    const cookie = await login();
    const accountId = await fundedAccount(10_000);
    const odd = "<b>branch</b> & co";
    const registered = await opsCall(`/ops/accounts/${accountId}/devices/${encodeURIComponent(odd)}`, {
      method: "PUT",
      body: JSON.stringify({ name: "Registered at the branch" }),
    });
    expect(registered.status).toBe(201);
    const asked = await call("/v1/devices/current", {
      method: "PUT",
      headers: await clientHeaders(accountId),
      body: JSON.stringify({ name: "Phone of the customer" }),
    });
    expect(asked.status).toBe(202);

    // With DEVICE_RULES off (this Worker) a transfer records no device: none was used.
    expect((await createTransfer(accountId, { amount_cents: 100, pix_key: "100.000.001-08", pix_key_type: "cpf" })).status).toBe(202);
    const response = await getPage(`/console/accounts/${accountId}`, cookie);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<h2 id="devices-heading">Devices</h2>');
    // This Worker runs with DEVICE_RULES off, and says so.
    expect(html).toContain("DEVICE_RULES is off");
    expect(html).toContain("&lt;b&gt;branch&lt;/b&gt; &amp; co");
    expect(html).not.toContain("<b>branch</b>");
    expect(html).toMatch(/registered since \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/);
    expect(html).toContain("ops-token");
    expect(html).toContain(supportDeviceId);
    expect(html).toContain("Phone of the customer");
    expect(html).toMatch(/pending until \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/);
    expect(html).toContain(">client<");
    expect(html).toContain(">never<");
  });

  it("says so when the account has no device", async () => {
    const cookie = await login();
    const accountId = await fundedAccount(0);
    const html = await (await getPage(`/console/accounts/${accountId}`, cookie)).text();
    expect(html).toContain("No device registered.");
  });
});
