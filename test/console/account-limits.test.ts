// The account page shows the account's rules: what is left today and of the night window, the
// increases waiting, and the directory-lookup budget (a miss costs 20).
import { describe, expect, it } from "vitest";
import { call, clientHeaders, fundedAccount } from "../support/api.ts";
import { putLimits } from "../support/limits.ts";
import { getPage, login } from "./support.ts";

describe("the account page's limits and lookups", () => {
  it("shows tonight's total left, a waiting increase and the lookup budget after a miss", async () => {
    const cookie = await login();
    const accountId = await fundedAccount(10_000);
    await putLimits(accountId, { night_total_cents: 50_000 });
    await putLimits(accountId, { night_total_cents: 80_000 });
    const miss = await call("/v1/pix-keys/unknown%40example.com?type=email", { headers: await clientHeaders(accountId) });
    expect(miss.status).toBe(404);

    const response = await getPage(`/console/accounts/${accountId}`, cookie);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Limits and lookups");
    expect(html).toMatch(/Left of the night of \d{4}-\d{2}-\d{2} \(20:00–06:00\)/);
    expect(html).toContain("R$ 500,00");
    expect(html).toMatch(/night_total_cents: R\$ 800,00, in force from \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/);
    expect(html).toContain("80 of 100");
    expect(html).toContain("The lookup budget is full again at");
  });
});
