// The console's "today" is business time's (CONTRACT §4 "Test clock"): the account page shows
// what is left of business today's São Paulo day, as the rules count it, while the lookup budget,
// a rate limit, refills on the wall clock the route spends it by.
import { describe, expect, it } from "vitest";
import { saoPauloClock } from "../../src/lib/sao-paulo-clock.ts";
import { getPage, login } from "../console/support.ts";
import { call, clientHeaders, createTransfer, fundedAccount, type TransferJson, waitForFinalState } from "../support/api.ts";
import { advanceClock, businessNow } from "../support/clock.ts";
import { happyKey, putLimits } from "../support/limits.ts";

describe("the console on business time", () => {
  it("shows what is left of business today, and the lookup budget as the route spent it", async () => {
    const cookie = await login();
    await advanceClock(86_400_000);
    const accountId = await fundedAccount(10_000);
    expect((await putLimits(accountId, { daily_cents: 5_000 })).status).toBe(200);
    const created = await createTransfer(accountId, { amount_cents: 1_000, ...happyKey });
    expect(created.status).toBe(202);
    expect(await waitForFinalState(accountId, (await created.json<TransferJson>()).id)).toMatchObject({ state: "completed" });
    const miss = await call("/v1/pix-keys/unknown%40example.com?type=email", { headers: await clientHeaders(accountId) });
    expect(miss.status).toBe(404);

    const response = await getPage(`/console/accounts/${accountId}`, cookie);
    expect(response.status).toBe(200);
    const html = await response.text();
    const today = saoPauloClock(await businessNow()).day;
    expect(today).not.toBe(saoPauloClock(Date.now()).day);
    expect(html).toContain(`Left today (${today})`);
    expect(html).toContain("R$ 40,00 of R$ 50,00");
    expect(html).toContain("80 of 100");
  });
});
