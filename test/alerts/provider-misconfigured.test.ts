// Our own misconfiguration seen in a provider's answer (credentials refused, payer key refused):
// always a structured error line, a signed alert when OPS_ALERT_URL is set, never a throw into
// the saga; and end to end, a wrong EFI_CLIENT_SECRET against the sandbox's Efí keeps the hold,
// alerts, and hands the transfer to a person at its deadline, never funds_reserved forever.
import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { noticeProviderMisconfigured, providerMisconfiguredEvent } from "../../src/alerts/provider-misconfigured.ts";
import { readRuleSettings } from "../../src/config/rule-settings.ts";
import { readSagaTimings } from "../../src/config/saga-timings.ts";
import { verifyWebhook } from "../../src/lib/webhook-signature.ts";
import { createEfiProvider } from "../../src/provider/efi/adapter.ts";
import type { ProviderAlert } from "../../src/provider/port.ts";
import { sandboxEfiBaseUrl } from "../../src/provider/select.ts";
import { advance } from "../../src/saga-runtime/advance.ts";
import type { SagaRecord } from "../../src/transfers/saga-record.ts";
import type { ProviderCallRecord } from "../../src/transfers/store.ts";
import { fundedAccount } from "../support/api.ts";
import { alertReceiver, captureLogs } from "../support/logs.ts";
import { filePool } from "../support/pool-test.ts";
import { ledgerFootprint, openWithoutObject, submittedRecord } from "../support/saga.ts";

const pool = filePool(2);
afterEach(() => vi.restoreAllMocks());

const saga = submittedRecord({
  id: "5d1f0b8e-2c4a-4f7e-9b1d-3e6a8c0f2a10",
  accountId: "acct-misconfigured",
  amountCents: 1_000,
  pixKey: "ana@example.com",
  checksMade: 0,
});
const refusedCall: ProviderCallRecord = { kind: "send", outcome: "unknown:token_http_401", httpStatus: 401, detail: null, durationMs: 12 };

describe("noticeProviderMisconfigured", () => {
  it("logs the alert and sends nothing when OPS_ALERT_URL is unset", () => {
    const lines = captureLogs();
    const waitUntil = vi.fn();
    noticeProviderMisconfigured({ ...env, OPS_ALERT_URL: undefined }, { waitUntil }, saga, "credentials_refused", refusedCall);
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      { event: providerMisconfiguredEvent, alert: "credentials_refused", transfer_id: saga.id, http_status: 401, alert_sent: false },
    ]);
    expect(waitUntil).not.toHaveBeenCalled();
  });

  it("POSTs provider.misconfigured to OPS_ALERT_URL, signed with OPS_ALERT_SECRET, beside the step", async () => {
    const lines = captureLogs();
    const receiver = alertReceiver();
    noticeProviderMisconfigured(
      { ...env, OPS_ALERT_URL: "https://alerts.example/hook" },
      receiver.runtime,
      saga,
      "payer_key_invalid",
      { ...refusedCall, outcome: "rejected:chave_invalida", httpStatus: 400 },
      new Set(),
    );
    await receiver.settled();
    const request = receiver.received[0];
    if (request === undefined) throw new Error("no alert sent");
    expect(request.url).toBe("https://alerts.example/hook");
    expect(request.headers.get("webhook-id")).toMatch(/^alert_payer_key_invalid_sandbox_\d+$/);
    const rawBody = new Uint8Array(await request.arrayBuffer());
    const nowSeconds = Date.now() / 1000;
    expect(await verifyWebhook({ secrets: env.OPS_ALERT_SECRET, headers: request.headers, rawBody, nowSeconds })).toEqual({ ok: true });
    expect(JSON.parse(new TextDecoder().decode(rawBody))).toMatchObject({
      type: "provider.misconfigured",
      data: {
        alert: "payer_key_invalid",
        configuration: "sandbox",
        transfer_id: saga.id,
        provider_call: "send",
        http_status: 400,
        outcome: "rejected:chave_invalida",
      },
    });
    expect(lines.some((line) => line.includes('"event":"ops_alert_delivered"'))).toBe(true);
  });

  it("sends one alert per configuration, however many transfers see it; each step still logs", async () => {
    const lines = captureLogs();
    const receiver = alertReceiver();
    const sent = new Set<string>();
    const config: Env = { ...env, OPS_ALERT_URL: "https://alerts.example/hook" };
    for (let n = 0; n < 5; n++) {
      const other = { ...saga, id: crypto.randomUUID() };
      noticeProviderMisconfigured(config, receiver.runtime, other, "credentials_refused", refusedCall, sent);
    }
    await receiver.settled();
    expect(receiver.received).toHaveLength(1);
    const logged = lines.map((line) => JSON.parse(line) as { event: string; alert_sent?: boolean });
    const steps = logged.filter((line) => line.event === providerMisconfiguredEvent);
    expect(steps.map((line) => line.alert_sent)).toEqual([true, false, false, false, false]);
  });

  it("never throws into the saga, whatever the fetcher does", async () => {
    const lines = captureLogs();
    const scheduled: Promise<unknown>[] = [];
    const failing = {
      waitUntil: (p: Promise<unknown>) => void scheduled.push(p),
      fetcher: () => {
        throw new Error("synchronous failure");
      },
      sleep: async () => {},
    };
    const config: Env = { ...env, OPS_ALERT_URL: "https://alerts.example/hook" };
    expect(() => noticeProviderMisconfigured(config, failing, saga, "credentials_refused", refusedCall, new Set())).not.toThrow();
    await Promise.all(scheduled);
    expect(lines.some((line) => line.includes('"event":"ops_alert_gave_up"'))).toBe(true);
  });
});

describe("a wrong EFI_CLIENT_SECRET, end to end", () => {
  it("keeps the transfer unknown with its hold, alerts, and ends needs_review past the deadline", async () => {
    captureLogs();
    const opened = await openWithoutObject(pool, await fundedAccount(10_000), 1_000, "efipay@sejaefi.com.br");
    // The adapter as production builds it, but with a secret the sandbox's Efí does not know:
    // its token endpoint answers 401, as Efí does.
    const provider = createEfiProvider({
      baseUrl: sandboxEfiBaseUrl,
      clientId: env.EFI_CLIENT_ID ?? "",
      clientSecret: "not-the-client-secret-0123456789",
      payerKey: env.EFI_PAYER_KEY ?? "",
      timeoutMs: 5_000,
      fetcher: (request) => exports.default.fetch(request),
      tokenCache: new Map(),
    });
    const receiver = alertReceiver();
    const alertsSent = new Set<string>();
    const alerts: ProviderAlert[] = [];
    let clockMs = Date.now();
    const ports = {
      db: pool,
      provider,
      timings: readSagaTimings(env),
      rules: readRuleSettings(env),
      nowMs: () => clockMs,
      alert: (s: SagaRecord, alert: ProviderAlert, call: ProviderCallRecord) => {
        alerts.push(alert);
        noticeProviderMisconfigured({ ...env, OPS_ALERT_URL: "https://alerts.example/hook" }, receiver.runtime, s, alert, call, alertsSent);
      },
    };

    const sent = await advance(ports, opened, { cause: "poke" });
    // Nothing reached Efí without a token: the send's fate is unknown, so the hold stays.
    expect(sent.state).toBe("submitted");
    expect((await ledgerFootprint(pool, opened.id)).holdStatus).toBe("held");
    expect(alerts).toContain("credentials_refused");

    clockMs = opened.deadlineAtMs + 1;
    let latest = sent;
    for (let run = 0; run < 5 && latest.state !== "needs_review"; run += 1) latest = await advance(ports, latest, { cause: "poke" });
    expect(latest.state).toBe("needs_review");
    const footprint = await ledgerFootprint(pool, opened.id);
    expect(footprint.holdStatus).toBe("held");
    expect(footprint.settleTransactions).toBe(0);
    expect(footprint.history).toEqual(["started", "funds_reserved", "submitted", "needs_review"]);

    await receiver.settled();
    // Every step saw the refusal; the configuration was alerted once.
    expect(alerts.length).toBeGreaterThan(1);
    expect(receiver.received).toHaveLength(1);
    const body = JSON.parse(await (receiver.received[0] as Request).text()) as {
      type: string;
      data: { alert: string; transfer_id: string };
    };
    expect(body).toMatchObject({ type: "provider.misconfigured", data: { alert: "credentials_refused", transfer_id: opened.id } });
  });
});
