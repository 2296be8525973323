// The console's contestation queue: those waiting for a decision, nearest deadline first, one
// past its deadline marked in words, each beside its transfer's story.
import { beforeAll, describe, expect } from "vitest";
import { openContestation } from "../../src/transfers/contestations.ts";
import { fundedAccount } from "../support/api.ts";
import { completedWithoutProvider } from "../support/completed.ts";
import { poolTest } from "../support/pool-test.ts";
import { getPage, login } from "./support.ts";

const it = poolTest(2);
const dayMs = 24 * 60 * 60 * 1000;

let cookie: string;
beforeAll(async () => {
  cookie = await login();
});

describe("contestations in the console", () => {
  it("lists them nearest deadline first, marks one past its deadline, and shows the transfer's story beside it", async ({ pool }) => {
    const accountId = await fundedAccount(10_000);
    const opened: string[] = [];
    // Made 12 days ago by business time (its deadline passed), then one made now; neither forwarded.
    for (const madeAgoMs of [12 * dayMs, 0]) {
      const saga = await completedWithoutProvider(pool, accountId, 1_234);
      const result = await openContestation(pool, {
        id: crypto.randomUUID(),
        accountId,
        transferId: saga.id,
        idempotencyKey: crypto.randomUUID(),
        requestFingerprint: "console",
        reason: "coercion",
        details: "Made to pay.",
        nowMs: Date.now() - madeAgoMs,
        testClock: false,
        askProvider: false,
      });
      if (result.outcome !== "created") throw new Error(result.outcome);
      opened.push(saga.id);
    }
    const [pastId, freshId] = opened as [string, string];
    const response = await getPage("/console/contestations", cookie);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("<h1>Contestations</h1>");
    expect(html.indexOf(`href="/console/transfers/${pastId}"`)).toBeGreaterThan(0);
    expect(html.indexOf(`href="/console/transfers/${pastId}"`)).toBeLessThan(html.indexOf(`href="/console/transfers/${freshId}"`));
    const pastRow = html.slice(html.lastIndexOf("<tr>", html.indexOf(pastId)), html.indexOf("</tr>", html.indexOf(pastId)));
    expect(pastRow).toContain("Past deadline");
    expect(pastRow).toContain("started → funds_reserved → submitted → completed");
    const freshRow = html.slice(html.lastIndexOf("<tr>", html.indexOf(freshId)), html.indexOf("</tr>", html.indexOf(freshId)));
    expect(freshRow).not.toContain("Past deadline");
    expect(html).toContain('href="/console/contestations"');
  });
});
