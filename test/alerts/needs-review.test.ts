// The transition into needs_review is announced: a structured log line always, a signed alert
// when OPS_ALERT_URL is set, scheduled beside the saga and never thrown into it.
import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { needsReviewEvent, noticeNeedsReview } from "../../src/alerts/needs-review.ts";
import { verifyWebhook } from "../../src/lib/webhook-signature.ts";
import type { SagaRecord } from "../../src/transfers/saga-record.ts";
import { createTransfer, fundedAccount, type TransferJson } from "../support/api.ts";
import { finalStateAtDeadline } from "../support/deadline.ts";
import { captureLogs } from "../support/logs.ts";
import { submittedRecord } from "../support/saga.ts";

const submitted = submittedRecord({
  id: "0b6f3c9e-6a3e-4c1e-9a53-0d8f1d7c2b11",
  accountId: "acct-alerts",
  amountCents: 7_500,
  pixKey: "processing@sandbox.test",
  checksMade: 5,
});
const inReview: SagaRecord = { ...submitted, state: "needs_review", nextCheckAtMs: null };

afterEach(() => vi.restoreAllMocks());

describe("noticeNeedsReview", () => {
  it("does nothing for steps that do not enter needs_review", () => {
    const lines = captureLogs();
    const waitUntil = vi.fn();
    noticeNeedsReview(env, { waitUntil }, submitted, { ...submitted, checksMade: 6 });
    noticeNeedsReview(env, { waitUntil }, inReview, inReview);
    expect(lines).toEqual([]);
    expect(waitUntil).not.toHaveBeenCalled();
  });

  it("logs the event and sends no alert when OPS_ALERT_URL is unset", () => {
    const lines = captureLogs();
    const waitUntil = vi.fn();
    noticeNeedsReview({ ...env, OPS_ALERT_URL: undefined }, { waitUntil }, submitted, inReview);
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      { event: needsReviewEvent, transfer_id: submitted.id, account_id: "acct-alerts", amount_cents: 7_500, alert_url_set: false },
    ]);
    expect(waitUntil).not.toHaveBeenCalled();
  });

  it("schedules a POST to OPS_ALERT_URL signed with OPS_ALERT_SECRET (not WEBHOOK_SECRET) beside the step, which returns at once", async () => {
    const lines = captureLogs();
    const received: Request[] = [];
    const scheduled: Promise<unknown>[] = [];
    const config: Env = { ...env, OPS_ALERT_URL: "https://alerts.example/hook" };
    noticeNeedsReview(
      config,
      {
        waitUntil: (p) => void scheduled.push(p),
        fetcher: async (r) => {
          received.push(r);
          return new Response(null, { status: 200 });
        },
      },
      submitted,
      inReview,
    );
    expect(scheduled).toHaveLength(1);
    await Promise.all(scheduled);
    const request = received[0];
    if (!request) throw new Error("no alert sent");
    const rawBody = new Uint8Array(await request.arrayBuffer());
    const nowSeconds = Date.now() / 1000;
    expect(await verifyWebhook({ secrets: env.OPS_ALERT_SECRET, headers: request.headers, rawBody, nowSeconds })).toEqual({ ok: true });
    // One job per secret: whoever holds the provider's key cannot forge an alert, nor the reverse.
    expect(await verifyWebhook({ secrets: env.WEBHOOK_SECRET, headers: request.headers, rawBody, nowSeconds })).toEqual({
      ok: false,
      reason: "bad_signature",
    });
    expect(JSON.parse(new TextDecoder().decode(rawBody))).toMatchObject({
      type: "transfer.needs_review",
      data: { transfer_id: submitted.id, account_id: "acct-alerts", amount_cents: 7_500 },
    });
    expect(lines.some((line) => line.includes('"event":"ops_alert_delivered"'))).toBe(true);
  });

  it("never throws into the saga, whatever the fetcher does", async () => {
    const lines = captureLogs();
    const scheduled: Promise<unknown>[] = [];
    const config: Env = { ...env, OPS_ALERT_URL: "https://alerts.example/hook" };
    const failing = {
      waitUntil: (p: Promise<unknown>) => void scheduled.push(p),
      fetcher: () => {
        throw new Error("synchronous failure");
      },
      sleep: async () => {},
    };
    expect(() => noticeNeedsReview(config, failing, submitted, inReview)).not.toThrow();
    await Promise.all(scheduled);
    expect(lines.some((line) => line.includes('"event":"ops_alert_gave_up"'))).toBe(true);
  });

  it("sends nothing when OPS_ALERT_URL is malformed or OPS_ALERT_SECRET missing: a configuration problem, not an alert", () => {
    captureLogs();
    const waitUntil = vi.fn();
    noticeNeedsReview({ ...env, OPS_ALERT_URL: "ftp://alerts.example" }, { waitUntil }, submitted, inReview);
    noticeNeedsReview(
      { ...env, OPS_ALERT_URL: "https://alerts.example/x", OPS_ALERT_SECRET: undefined },
      { waitUntil },
      submitted,
      inReview,
    );
    expect(waitUntil).not.toHaveBeenCalled();
  });
});

describe("the saga announces needs_review", () => {
  it("logs transfer_needs_review once when the deadline hands a transfer to operators", async () => {
    const lines: string[] = [];
    const original = console.log;
    vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => {
      lines.push(args.map(String).join(" "));
      original(...args);
    });
    const accountId = await fundedAccount(10_000);
    const created = await createTransfer(accountId, { amount_cents: 3_000, pix_key: "processing@sandbox.test", pix_key_type: "email" });
    const { id } = await created.json<TransferJson>();
    expect((await finalStateAtDeadline(accountId, id)).state).toBe("needs_review");
    const eventsFor = () =>
      lines.filter((line) => line.includes(`"event":"${needsReviewEvent}"`) && line.includes(id)).map((line) => JSON.parse(line));
    // The row turns needs_review a moment before the object logs it: wait for the line.
    await vi.waitFor(() => expect(eventsFor()).toHaveLength(1), { timeout: 2_000 });
    expect(eventsFor()[0]).toMatchObject({ event: needsReviewEvent, transfer_id: id, account_id: accountId, amount_cents: 3_000 });
  });
});
