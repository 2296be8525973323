// late-confirm@ (CONTRACT §4): not found until after the grace window, then confirmed. The Pix
// leaves once the caller has given up on it, never on a clock the caller races: however slow
// its last check, the saga reads not found and releases, and only then does the Pix appear.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sleep } from "../../src/lib/sleep.ts";
import type { SandboxAnswer } from "../../src/provider/sandbox/answers.ts";
import { type SandboxSend, sandboxInstanceName } from "../../src/provider/sandbox/sandbox-object.ts";

const sandbox = env.SANDBOX.getByName(sandboxInstanceName);
/** The RPC stub cannot type an answer's JSON body; the routes read it the same way (callObject). */
const answered = async (call: Promise<unknown>) => (await call) as SandboxAnswer;

function lateSend(notFoundGraceMs: number): SandboxSend {
  return {
    idempotencyKey: crypto.randomUUID(),
    amountCents: 4_321,
    pixKey: "late-confirm@sandbox.test",
    pixKeyType: "email",
    confirmMs: 0,
    providerTimeoutMs: 5_000,
    notFoundGraceMs,
  };
}

describe("late-confirm@ in the sandbox", () => {
  it("generic API: not found within the grace window, and the not-found past it lets the Pix leave", async () => {
    const send = lateSend(60_000);
    expect((await answered(sandbox.send(send))).httpStatus).toBe(201);
    expect((await answered(sandbox.status(send.idempotencyKey, 60_000))).httpStatus).toBe(404);
    expect((await sandbox.payment(send.idempotencyKey))?.status).toBe("not_found");
    // A caller whose grace window is over (0 here) is told not found: it releases on that.
    expect((await answered(sandbox.status(send.idempotencyKey, 0))).httpStatus).toBe(404);
    expect(await sandbox.payment(send.idempotencyKey)).toMatchObject({ status: "confirmed", made: true });
  });

  it("generic API: a caller that asks again after the give-up was still inside its window, and reads not found until it releases", async () => {
    const send = lateSend(60_000);
    await sandbox.send(send);
    // Past the grace window by the sandbox's clock (0 here), so the Pix leaves...
    expect((await answered(sandbox.status(send.idempotencyKey, 0))).httpStatus).toBe(404);
    expect((await sandbox.payment(send.idempotencyKey))?.status).toBe("confirmed");
    // ...but the caller's window, run from when it got the send's answer, was not over: it asks again.
    expect((await answered(sandbox.status(send.idempotencyKey, 60_000))).httpStatus).toBe(404);
    expect((await sandbox.payment(send.idempotencyKey))?.status).toBe("not_found");
    // Its window over, it is told not found once more and releases; only then does the Pix leave.
    expect((await answered(sandbox.status(send.idempotencyKey, 0))).httpStatus).toBe(404);
    expect((await sandbox.payment(send.idempotencyKey))?.status).toBe("confirmed");
  });

  it("generic API: a caller slow to check past the grace window still reads not found first", async () => {
    const send = lateSend(0);
    await sandbox.send(send);
    await sleep(1_000);
    expect((await answered(sandbox.status(send.idempotencyKey, 0))).httpStatus).toBe(404);
    expect((await sandbox.payment(send.idempotencyKey))?.status).toBe("confirmed");
  });

  it("Efí: a resend slow to come past the grace window is refused, the read after it finds nothing, and then the Pix leaves", async () => {
    const send = lateSend(0);
    expect((await answered(sandbox.sendEfi(send))).httpStatus).toBe(201);
    expect((await answered(sandbox.statusEfi(send.idempotencyKey))).httpStatus).toBe(404);
    await sleep(1_000);
    // Efí's status never gives up for the caller: the saga's resend, refused, and the status
    // read it makes after that refusal do.
    expect((await answered(sandbox.statusEfi(send.idempotencyKey))).httpStatus).toBe(404);
    expect(await answered(sandbox.sendEfi(send))).toMatchObject({ httpStatus: 422, body: { nome: "pagamento_negado" } });
    expect((await sandbox.payment(send.idempotencyKey))?.status).toBe("not_found");
    expect((await answered(sandbox.statusEfi(send.idempotencyKey))).httpStatus).toBe(404);
    expect((await answered(sandbox.statusEfi(send.idempotencyKey))).body).toMatchObject({ status: "REALIZADO" });
    expect(await sandbox.payment(send.idempotencyKey)).toMatchObject({ status: "confirmed", send_calls: 2, made: true });
  });
});
