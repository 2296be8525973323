// A webhook's answer does not wait for the sagas it pokes (CONTRACT §3, §3b): a saga held at
// the send gate or in a provider call must not delay the 202/200, and the poke is still made.
// The Worker is called with a TRANSFER_SAGA whose poke answers only when the test says so: were
// the answer to wait for it, it would never come.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { signedWebhookHeaders } from "../../src/lib/webhook-signature.ts";
import worker from "../../src/worker.ts";
import { captureLogEvents } from "../support/logs.ts";

interface HeldPokes {
  env: Env;
  /** The transfer ids poked so far. */
  poked: string[];
  /** Lets every poke made so far, and any later one, answer. */
  release: () => void;
}

function heldPokes(): HeldPokes {
  const poked: string[] = [];
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const sagas = {
    getByName: (transferId: string) => ({
      poke: async () => {
        poked.push(transferId);
        await released;
        return { state: "submitted" };
      },
    }),
  };
  return { env: { ...env, TRANSFER_SAGA: sagas as unknown as Env["TRANSFER_SAGA"] }, poked, release: () => release() };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a webhook whose saga is busy", () => {
  it("POST /webhooks/provider answers 202 before the poke answers, and the poke completes after", async () => {
    const logs = captureLogEvents("provider_webhook");
    const held = heldPokes();
    const transferId = crypto.randomUUID();
    const body = JSON.stringify({ type: "pix.payment.updated", data: { idempotency_key: transferId, status: "confirmed" } });
    const secret = env.WEBHOOK_SECRET.split(" ")[0] ?? "";
    const headers = await signedWebhookHeaders({ secret, id: `msg_${transferId}`, timestampSeconds: Math.floor(Date.now() / 1000), body });
    const ctx = createExecutionContext();
    const response = await worker.fetch(
      new Request("http://example.com/webhooks/provider", { method: "POST", headers, body }),
      held.env,
      ctx,
    );
    expect(response.status).toBe(202);
    expect(held.poked).toEqual([transferId]);
    expect(logs().filter((r) => r.outcome === "poked")).toEqual([]);
    held.release();
    await waitOnExecutionContext(ctx);
    expect(logs()).toMatchObject([{ idempotency_key: transferId, outcome: "poked", state: "submitted" }]);
  });

  it.each(["/webhooks/efi", "/webhooks/efi/pix"])("POST %s answers 200 before the pokes answer, and each completes after", async (path) => {
    const logs = captureLogEvents("efi_webhook");
    const held = heldPokes();
    const ids = [crypto.randomUUID(), crypto.randomUUID()];
    const url = new URL(`http://example.com${path}`);
    url.searchParams.set("hmac", env.EFI_WEBHOOK_HMAC ?? "");
    const items = ids.map((id) => ({ endToEndId: "E1", status: "REALIZADO", gnExtras: { idEnvio: id.replaceAll("-", "") } }));
    const request = new Request(url, {
      method: "POST",
      headers: { "content-type": "application/json", "cf-connecting-ip": "34.193.116.226" },
      body: JSON.stringify({ pix: items }),
    });
    const ctx = createExecutionContext();
    const response = await worker.fetch(request, held.env, ctx);
    expect(response.status).toBe(200);
    expect(held.poked.sort()).toEqual([...ids].sort());
    held.release();
    await waitOnExecutionContext(ctx);
    const poked = logs()
      .filter((r) => r.outcome === "poked")
      .map((r) => r.idempotency_key);
    expect(poked.sort()).toEqual([...ids].sort());
  });
});
