// The needs_review alerts, as a real HTTP receiver at OPS_ALERT_URL got them: one per transfer,
// signed per Standard Webhooks with the first WEBHOOK_SECRET.
import { verifyWebhook } from "../../src/provider/webhook-signature.ts";
import { assert, type Check } from "./harness.ts";

const arrivalTimeoutMs = 15_000;

export const alertCheck: Check = {
  name: "each needs_review transfer was alerted to OPS_ALERT_URL, signed with WEBHOOK_SECRET",
  async run(ctx) {
    const expected = [ctx.seeded.reviewA.id, ctx.seeded.reviewB.id];
    const giveUpAtMs = Date.now() + arrivalTimeoutMs;
    while (ctx.receiver.alerts.length < expected.length && Date.now() < giveUpAtMs) await new Promise((r) => setTimeout(r, 100));
    const alerted: string[] = [];
    for (const alert of ctx.receiver.alerts) {
      const headers = { get: (name: string) => (typeof alert.headers[name] === "string" ? (alert.headers[name] as string) : null) };
      const verified = await verifyWebhook({ secrets: ctx.webhookSecret, headers, rawBody: alert.rawBody, nowSeconds: Date.now() / 1000 });
      assert(verified.ok, `an alert failed verification: ${JSON.stringify(verified)}`);
      const payload = JSON.parse(new TextDecoder().decode(alert.rawBody)) as { type: string; data: { transfer_id: string } };
      assert(payload.type === "transfer.needs_review", `unexpected alert type ${payload.type}`);
      alerted.push(payload.data.transfer_id);
    }
    assert(
      alerted.sort().join() === [...expected].sort().join(),
      `alerted ${JSON.stringify(alerted)}, expected ${JSON.stringify(expected)}`,
    );
  },
};
