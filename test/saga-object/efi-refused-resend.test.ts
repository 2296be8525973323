// Efí's not-found past the grace window is settled by sending again (CONTRACT §4b); a refusal of
// that resend releases the hold only once a status read made after it still finds nothing. A
// status read that lagged behind a payment, and a refusal that only says "not again", must not
// release a Pix that left. The adapter as production builds it, against the tests' fake Efí.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readRuleSettings } from "../../src/config/rule-settings.ts";
import { readSagaTimings } from "../../src/config/saga-timings.ts";
import { createEfiProvider } from "../../src/provider/efi/adapter.ts";
import { idEnvioOf } from "../../src/provider/efi/money.ts";
import { advance, type SagaPorts } from "../../src/saga-runtime/advance.ts";
import { FakeEfi } from "../provider/efi/fake-efi.ts";
import { fundedAccount } from "../support/api.ts";
import { filePool } from "../support/pool-test.ts";
import { ledgerFootprint, openWithoutObject } from "../support/saga.ts";

const pool = filePool(2);
const timings = readSagaTimings(env);

function efiPorts(efi: FakeEfi, clock: { nowMs: number }): SagaPorts {
  const provider = createEfiProvider({
    baseUrl: "https://efi.test",
    clientId: "client",
    clientSecret: "secret",
    payerKey: "pagador@example.com",
    timeoutMs: 5_000,
    fetcher: efi.fetcher,
    nowMs: () => clock.nowMs,
    tokenCache: new Map(),
  });
  return { db: pool, provider, timings, rules: readRuleSettings(env), nowMs: () => clock.nowMs };
}

/** A transfer sent and held by Efí, then a status read past the grace window that does not show it. */
async function sentThenUnseen(efi: FakeEfi, clock: { nowMs: number }) {
  const opened = await openWithoutObject(pool, await fundedAccount(10_000), 1_000, "ana@example.com");
  const sent = await advance(efiPorts(efi, clock), opened, { cause: "poke" });
  expect(sent.state).toBe("submitted");
  clock.nowMs = (sent.lastSentAtMs ?? 0) + timings.notFoundGraceMs + 1;
  efi.knobs.refuseRepeats = true;
  return sent;
}

describe("a refused resend after an Efí not-found", () => {
  it("settles a payment that the next status read shows, instead of releasing it", async () => {
    const efi = new FakeEfi();
    const clock = { nowMs: Date.now() };
    const sent = await sentThenUnseen(efi, clock);
    efi.settle(idEnvioOf(sent.id));
    efi.knobs.lagStatusReads = 1;

    const after = await advance(efiPorts(efi, clock), sent, { cause: "poke" });

    expect(after.state).toBe("completed");
    const footprint = await ledgerFootprint(pool, sent.id);
    expect(footprint.holdStatus).toBe("settled");
    const calls = efi.requests.filter((r) => r.path !== "/oauth/token").map((r) => r.method);
    // send, the lagging status, the refused resend, and the status read once more.
    expect(calls).toEqual(["PUT", "GET", "PUT", "GET"]);
  });

  it("releases, not_sent with the refusal's code, when that read still finds nothing", async () => {
    const efi = new FakeEfi();
    const clock = { nowMs: Date.now() };
    const sent = await sentThenUnseen(efi, clock);
    efi.knobs.lagStatusReads = 2;

    const after = await advance(efiPorts(efi, clock), sent, { cause: "poke" });

    expect(after.state).toBe("compensated");
    const { rows } = await pool.query<{ failure_reason: string; failure_code: string }>(
      "SELECT failure_reason, failure_code FROM transfers WHERE id = $1",
      [sent.id],
    );
    expect(rows[0]).toEqual({ failure_reason: "not_sent", failure_code: "pagamento_negado" });
    expect((await ledgerFootprint(pool, sent.id)).holdStatus).toBe("released");
  });
});
