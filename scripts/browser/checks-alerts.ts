// The operators' alerts, as a real HTTP receiver at OPS_ALERT_URL got them: one per needs_review
// transfer and one per provider reconciliation run that found a divergence,
// signed per Standard Webhooks with the first OPS_ALERT_SECRET. Verified here with node:crypto,
// straight from the spec, rather than with the Worker's own code that signed them.
import { createHmac } from "node:crypto";
import { sleep } from "../../src/lib/sleep.ts";
import { assert, type Check } from "./harness.ts";
import type { ReceivedAlert } from "./receiver.ts";

const arrivalTimeoutMs = 15_000;
const toleranceSeconds = 300;

function header(alert: ReceivedAlert, name: string): string {
  const value = alert.headers[name];
  assert(typeof value === "string" && value !== "", `the alert has no ${name} header`);
  return value;
}

function verifySignature(alert: ReceivedAlert, secret: string): void {
  const id = header(alert, "webhook-id");
  const timestamp = header(alert, "webhook-timestamp");
  assert(Math.abs(Date.now() / 1000 - Number(timestamp)) <= toleranceSeconds, `stale webhook-timestamp ${timestamp}`);
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.`).update(alert.rawBody).digest("base64");
  const signatures = header(alert, "webhook-signature").split(" ");
  assert(signatures.includes(`v1,${expected}`), `no signature matches: ${signatures.join(" ")}`);
}

export const alertCheck: Check = {
  name: "each needs_review transfer and the provider divergence were alerted to OPS_ALERT_URL, signed with OPS_ALERT_SECRET",
  async run(ctx) {
    const expected = [ctx.seeded.reviewA.id, ctx.seeded.reviewB.id];
    // The two needs_review alerts, and the one of the provider reconciliation run that found a divergence.
    const expectedCount = expected.length + 1;
    const giveUpAtMs = Date.now() + arrivalTimeoutMs;
    while (ctx.receiver.alerts.length < expectedCount && Date.now() < giveUpAtMs) await sleep(100);
    const alerted: string[] = [];
    let divergenceAlerts = 0;
    for (const alert of ctx.receiver.alerts) {
      verifySignature(alert, ctx.opsAlertSecret);
      const payload = JSON.parse(Buffer.from(alert.rawBody).toString("utf8")) as { type: string; data: { transfer_id: string } };
      if (payload.type === "provider_reconciliation.divergence") {
        divergenceAlerts++;
        continue;
      }
      assert(payload.type === "transfer.needs_review", `unexpected alert type ${payload.type}`);
      alerted.push(payload.data.transfer_id);
    }
    assert(
      alerted.sort().join() === [...expected].sort().join(),
      `alerted ${JSON.stringify(alerted)}, expected ${JSON.stringify(expected)}`,
    );
    assert(divergenceAlerts === 1, `${divergenceAlerts} provider divergence alert(s), expected 1`);
  },
};
