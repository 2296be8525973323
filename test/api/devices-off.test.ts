// With DEVICE_RULES off (the local default, and this project's Worker) the new-device cap does
// not exist: a token's device_id is not required, no transfer records a device or counts toward
// a new-device day, and a large transfer from any device passes. The device routes still work
// for a token that names its device, so devices can be registered before the rules are on.
import { describe, expect, it } from "vitest";
import { call, clientHeaders, clientToken, createTransfer, fundedAccount, type TransferJson } from "../support/api.ts";
import { filePool } from "../support/pool-test.ts";

const pool = filePool(1);

async function headersWithout(accountId: string): Promise<Record<string, string>> {
  return { authorization: `Bearer ${await clientToken(accountId, 600, undefined, {})}`, "content-type": "application/json" };
}

describe("DEVICE_RULES off", () => {
  it("caps no device: a transfer above the new-device cap passes, records no device and counts nothing", async () => {
    const accountId = await fundedAccount(1_000_000);
    // Above NEW_DEVICE_TRANSFER_LIMIT_CENTS (20000), within the night cap whatever the hour.
    const response = await createTransfer(accountId, { amount_cents: 30_000, pix_key: "100.000.001-08", pix_key_type: "cpf" });
    expect(response.status).toBe(202);
    const transfer = await response.json<TransferJson>();
    expect(transfer.failure_reason).toBeNull();
    const { rows } = await pool.query<{ device_id: string | null; device_registered: boolean | null }>(
      "SELECT device_id, device_registered FROM transfers WHERE id = $1",
      [transfer.id],
    );
    expect(rows).toEqual([{ device_id: null, device_registered: null }]);
    const usage = await pool.query("SELECT 1 FROM limit_usage WHERE account_id = $1 AND period = 'new_device'", [accountId]);
    expect(usage.rows).toEqual([]);
  });

  it("requires no device_id in the token", async () => {
    const accountId = await fundedAccount(100);
    expect((await call("/v1/balance", { headers: await headersWithout(accountId) })).status).toBe(200);
  });

  it("still registers a token's device, and answers 400 (writing nothing) for a token that names none", async () => {
    const accountId = await fundedAccount(0);
    const refused = await call("/v1/devices/current", {
      method: "PUT",
      headers: await headersWithout(accountId),
      body: JSON.stringify({ name: "Pixel" }),
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ errors: [{ field: "device_id" }] });
    const listed = await call("/v1/devices", { headers: await headersWithout(accountId) });
    expect(await listed.json()).toEqual({ data: [] });

    const asked = await call("/v1/devices/current", {
      method: "PUT",
      headers: await clientHeaders(accountId),
      body: JSON.stringify({ name: "Pixel" }),
    });
    expect(asked.status).toBe(202);
    expect(await asked.json()).toMatchObject({ device_id: "test-support", name: "Pixel", state: "pending" });
  });
});
