// A Pix provider that lives in the bench process and answers like the sandbox (CONTRACT §4):
// `reject@sandbox.test` is refused at send, anything else is accepted as processing and then
// confirmed. Enough to drive the saga runner's paths and count its database round trips; it
// says nothing about provider latency (the Worker metrics use the real sandbox for that).
import { randomBytes } from "node:crypto";
import type { BrCodeResolution } from "../../src/provider/br-code-resolution.ts";
import type { PixOrder, PixProvider, ProviderEvidence, SendOutcome, StatementOutcome, StatusOutcome } from "../../src/provider/port.ts";

export const rejectedPixKey = "reject@sandbox.test";
const rejectCode = "invalid_key";

function evidence(httpStatus: number, body: unknown): ProviderEvidence {
  return { httpStatus, durationMs: 0, body, error: null };
}

/** BCB shape: `E` + 31 alphanumerics (the sandbox's are ISPB + timestamp + random). */
function endToEndId(): string {
  return `E${randomBytes(16).toString("hex").slice(0, 31).toUpperCase()}`;
}

export function inProcessProvider(): PixProvider {
  const accepted = new Map<string, string>();
  return {
    async send(order: PixOrder): Promise<SendOutcome> {
      if (order.pixKey === rejectedPixKey) return { kind: "rejected", code: rejectCode, evidence: evidence(422, { code: rejectCode }) };
      const id = accepted.get(order.idempotencyKey) ?? endToEndId();
      accepted.set(order.idempotencyKey, id);
      const body = { idempotency_key: order.idempotencyKey, status: "processing", end_to_end_id: id };
      return { kind: "accepted", status: "processing", endToEndId: id, evidence: evidence(201, body) };
    },
    async status(order: PixOrder): Promise<StatusOutcome> {
      const id = accepted.get(order.idempotencyKey);
      if (id === undefined) return { kind: "not_found", afterGrace: "release", evidence: evidence(404, { code: "not_found" }) };
      const body = { idempotency_key: order.idempotencyKey, status: "confirmed", end_to_end_id: id };
      return { kind: "confirmed", endToEndId: id, returns: [], evidence: evidence(200, body) };
    },
    /** The bench pays keys only. */
    async resolveBrCode(): Promise<BrCodeResolution> {
      return { kind: "refused", code: "not_supported", evidence: evidence(400, { code: "not_supported" }) };
    },
    async statement(): Promise<StatementOutcome> {
      // The bench never reconciles: it keeps no amounts or times to list.
      return { complete: false, why: "not_kept", items: [], pages: 0, evidence: null };
    },
  };
}
