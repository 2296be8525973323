// A Pix provider on the generic API (CONTRACT §4) that lives in the bench process and answers
// every call after a fixed delay, as a PSP across a network does: a send is accepted as
// processing, a status check finds it confirmed. It counts the sends it holds at once, so the
// send gate's bound (PROVIDER_SEND_CONCURRENCY) is seen from the provider's side, not trusted.
// A send to `hungPixKey` makes the payment and never answers (the caller times out), and the
// provider notes how long after that timeout the next send arrived: the gate's idle time.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { sleep } from "../../src/lib/sleep.ts";

/** A send to this key is made and never answered: it hangs until the caller gives up. */
export const hungPixKey = "hung@example.com";

export interface PacedProvider {
  /** PROVIDER_URL for the Worker: `/pix/{idempotency_key}` is appended. */
  baseUrl: string;
  /** The most sends held at once since the last reset. */
  sendsInFlightMax(): number;
  resetSendsInFlightMax(): void;
  /**
   * For each hung send, how long after the caller's timeout (`callerTimeoutMs` from its arrival)
   * the next send arrived: how long the gate stood idle behind it.
   */
  idleAfterHungMs(): number[];
  close(): Promise<void>;
}

interface Payment {
  amountCents: number;
  endToEndId: string;
}

function endToEndId(): string {
  return `E${randomBytes(16).toString("hex").slice(0, 31).toUpperCase()}`;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function answer(response: ServerResponse, httpStatus: number, body: unknown): void {
  response.writeHead(httpStatus, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

/** `callerTimeoutMs`: the Worker's PROVIDER_TIMEOUT_MS, when it gives up on a hung send. */
export async function startPacedProvider(answerDelayMs: number, callerTimeoutMs: number): Promise<PacedProvider> {
  const payments = new Map<string, Payment>();
  let inFlight = 0;
  let inFlightMax = 0;
  const pause = () => sleep(answerDelayMs);
  /** When the caller gave up on each hung send that no later send has followed yet. */
  let givenUpAtMs: number[] = [];
  const idleMs: number[] = [];

  /** A hung send is made and held open until the caller closes it (its timeout). */
  function hang(response: ServerResponse, idempotencyKey: string, amountCents: number): void {
    payments.set(idempotencyKey, payments.get(idempotencyKey) ?? { amountCents, endToEndId: endToEndId() });
    givenUpAtMs.push(Date.now() + callerTimeoutMs);
    response.on("close", () => {
      inFlight -= 1;
    });
  }

  const server = createServer(async (request, response) => {
    const key = /^\/pix\/([^/?]+)$/.exec(request.url ?? "")?.[1];
    if (key === undefined) return answer(response, 404, { code: "no_such_route" });
    const idempotencyKey = decodeURIComponent(key);
    if (request.method === "PUT") {
      const arrivedAtMs = Date.now();
      idleMs.push(...givenUpAtMs.map((atMs) => Math.max(0, arrivedAtMs - atMs)));
      givenUpAtMs = [];
      inFlight += 1;
      inFlightMax = Math.max(inFlightMax, inFlight);
      let hung = false;
      try {
        const order = JSON.parse(await readBody(request)) as { amount_cents: number; pix_key?: string };
        if (order.pix_key === hungPixKey) {
          hung = true;
          return hang(response, idempotencyKey, order.amount_cents);
        }
        await pause();
        const existing = payments.get(idempotencyKey);
        const payment = existing ?? { amountCents: order.amount_cents, endToEndId: endToEndId() };
        payments.set(idempotencyKey, payment);
        const body = {
          idempotency_key: idempotencyKey,
          amount_cents: payment.amountCents,
          status: "processing",
          end_to_end_id: payment.endToEndId,
        };
        return answer(response, existing === undefined ? 201 : 200, body);
      } finally {
        // A hung send stays in flight until its caller closes it.
        if (!hung) inFlight -= 1;
      }
    }
    await pause();
    const payment = payments.get(idempotencyKey);
    if (payment === undefined) return answer(response, 404, { code: "not_found" });
    return answer(response, 200, {
      idempotency_key: idempotencyKey,
      amount_cents: payment.amountCents,
      status: "confirmed",
      end_to_end_id: payment.endToEndId,
      code: null,
      returns: [],
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    sendsInFlightMax: () => inFlightMax,
    resetSendsInFlightMax: () => {
      inFlightMax = inFlight;
    },
    idleAfterHungMs: () => [...idleMs],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
