// A dynamic BR Code the provider cannot resolve before the send (the sandbox's `.../unavailable`
// payload answers 503 every time): not a change. Nothing is sent, the hold stays, each check is
// recorded with the saga's backoff, and the deadline hands the transfer to a person.
import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { readRuleSettings } from "../../src/config/rule-settings.ts";
import { readSagaTimings } from "../../src/config/saga-timings.ts";
import { createHttpProvider } from "../../src/provider/http-provider.ts";
import { sandboxProviderBaseUrl } from "../../src/provider/select.ts";
import { advance } from "../../src/saga-runtime/advance.ts";
import { openTransfer } from "../../src/transfers/store.ts";
import { fundedAccount, sandboxPayment } from "../support/api.ts";
import { dynamicBrCode } from "../support/br-codes.ts";
import { filePool } from "../support/pool-test.ts";
import { ledgerFootprint, openDefaults } from "../support/saga.ts";

const pool = filePool(2);

describe("a dynamic BR Code with no answer before the send", () => {
  it("sends nothing, keeps the hold, asks again with backoff, and ends needs_review at the deadline", async () => {
    const timings = readSagaTimings(env);
    const opened = await openTransfer(pool, {
      id: crypto.randomUUID(),
      accountId: await fundedAccount(10_000),
      amountCents: 1_000,
      pixKey: "ana@example.com",
      pixKeyType: "email",
      description: null,
      idempotencyKey: crypto.randomUUID(),
      requestFingerprint: "fp",
      deadlineMs: timings.deadlineMs,
      ...openDefaults(),
      brCode: { text: dynamicBrCode("unavailable", 1_000), kind: "dynamic", merchantName: null, merchantCity: null },
    });
    if (opened.outcome !== "created") throw new Error(`open answered ${opened.outcome}`);
    const provider = createHttpProvider({
      baseUrl: sandboxProviderBaseUrl,
      token: env.PROVIDER_TOKEN,
      timeoutMs: 20_000,
      fetcher: (request) => exports.default.fetch(request),
    });
    let clockMs = Date.now();
    const ports = { db: pool, provider, timings, rules: readRuleSettings(env), nowMs: () => clockMs };

    const first = await advance(ports, opened.saga, { cause: "poke" });
    expect(first).toMatchObject({ state: "funds_reserved", checksMade: 1, lastSentAtMs: null });
    expect(first.nextCheckAtMs).toBe(clockMs + 2 * timings.firstCheckDelayMs);
    const second = await advance(ports, first, { cause: "poke" });
    expect(second).toMatchObject({ state: "funds_reserved", checksMade: 2 });

    clockMs = opened.saga.deadlineAtMs + 1;
    const late = await advance(ports, second, { cause: "poke" });
    expect(late.state).toBe("needs_review");
    const footprint = await ledgerFootprint(pool, opened.saga.id);
    expect(footprint.holdStatus).toBe("held");
    expect(footprint.history).toEqual(["started", "funds_reserved", "needs_review"]);
    expect(await sandboxPayment(opened.saga.id)).toBeNull();
  });
});
