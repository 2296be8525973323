// A provider reconciliation run that is not ok is announced: a log line always, a signed POST to
// OPS_ALERT_URL when set; a clean run says nothing.
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { verifyWebhook } from "../../src/lib/webhook-signature.ts";
import { noticeProviderDivergence, providerDivergenceEvent } from "../../src/reconciliation/divergence-alert.ts";
import type { RunJson } from "../../src/reconciliation/store.ts";
import { alertReceiver } from "../support/logs.ts";

const clean: RunJson = {
  run_id: "41",
  from: "2026-12-01T03:00:00.000Z",
  to: "2026-12-02T03:00:00.000Z",
  actor: "cron",
  ran_at: "2026-12-02T03:30:02.000Z",
  ok: true,
  checked: 120,
  returns_applied: 0,
  statement: { complete: true, problem: null },
  divergences: [],
};
const divergent: RunJson = {
  ...clean,
  ok: false,
  divergences: [
    { kind: "paid_after_release", transfer_id: "0b6f3c9e-6a3e-4c1e-9a53-0d8f1d7c2b11", end_to_end_id: null, ours: null, provider: null },
  ],
};

afterEach(() => vi.restoreAllMocks());

describe("noticeProviderDivergence", () => {
  it("says nothing about a clean run", () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const waitUntil = vi.fn();
    noticeProviderDivergence({ ...env, OPS_ALERT_URL: "https://alerts.example/hook" }, { waitUntil }, clean);
    expect(errors).not.toHaveBeenCalled();
    expect(waitUntil).not.toHaveBeenCalled();
  });

  it("logs the divergences and POSTs a signed alert to OPS_ALERT_URL", async () => {
    const lines: string[] = [];
    vi.spyOn(console, "error").mockImplementation((line: unknown) => void lines.push(String(line)));
    vi.spyOn(console, "log").mockImplementation(() => undefined);
    const receiver = alertReceiver();
    noticeProviderDivergence({ ...env, OPS_ALERT_URL: "https://alerts.example/hook" }, receiver.runtime, divergent);
    expect(JSON.parse(lines[0] ?? "{}")).toMatchObject({
      event: providerDivergenceEvent,
      run_id: "41",
      divergences: 1,
      kinds: ["paid_after_release"],
    });
    await receiver.settled();
    const request = receiver.received[0];
    if (request === undefined) throw new Error("no alert sent");
    const body = await request.text();
    expect(JSON.parse(body)).toMatchObject({
      type: "provider_reconciliation.divergence",
      data: { run_id: "41", divergences_count: 1, divergences: divergent.divergences },
    });
    const verified = await verifyWebhook({
      secrets: env.OPS_ALERT_SECRET ?? "",
      headers: request.headers,
      rawBody: new TextEncoder().encode(body),
      nowSeconds: Math.floor(Date.now() / 1000),
    });
    expect(verified.ok).toBe(true);
  });
});
