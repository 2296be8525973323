// A real HTTP receiver on 127.0.0.1 for EVENTS_URL: the fintech's backend as tests and scripts
// need it. POST /events keeps each delivery (headers and raw body) and answers per transfer as
// told: ok (204), fail (503), hang (no answer for hang_ms), or down (the connection is
// destroyed), for the next `count` deliveries of that transfer. The control API (JSON):
// GET /control/received?transfer_id=, PUT /control/behaviour { transfer_id, mode, count, hang_ms }.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type ReceiverMode = "ok" | "fail" | "hang" | "down";

export interface ReceivedEvent {
  transfer_id: string | null;
  headers: Record<string, string>;
  body: string;
  /** What the receiver did with it. */
  answered: ReceiverMode;
  at_ms: number;
}

interface Behaviour {
  mode: ReceiverMode;
  remaining: number;
  hangMs: number;
}

export interface EventReceiver {
  url: string;
  controlUrl: string;
  received: ReceivedEvent[];
  close(): Promise<void>;
}

/** Bounds what a misbehaving test can make the receiver keep. */
const receivedMax = 100_000;
const bodyBytesMax = 1_000_000;

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    request.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes <= bodyBytesMax) chunks.push(chunk);
    });
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

/** The transfer an event is about: its data's id, or a contestation's transfer_id. */
function transferIdOf(body: string): string | null {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed !== "object" || parsed === null || !("data" in parsed)) return null;
    const data: unknown = parsed.data;
    if (typeof data !== "object" || data === null) return null;
    if ("transfer_id" in data && typeof data.transfer_id === "string") return data.transfer_id;
    return "id" in data && typeof data.id === "string" ? data.id : null;
  } catch {
    return null;
  }
}

export async function startEventReceiver(options: { port?: number } = {}): Promise<EventReceiver> {
  const received: ReceivedEvent[] = [];
  const behaviours = new Map<string, Behaviour>();
  const hung = new Set<ServerResponse>();

  const onEvent = async (request: IncomingMessage, response: ServerResponse) => {
    const body = await readBody(request);
    const transferId = transferIdOf(body);
    const behaviour = transferId === null ? undefined : behaviours.get(transferId);
    const mode: ReceiverMode = behaviour && behaviour.remaining > 0 ? behaviour.mode : "ok";
    if (behaviour && behaviour.remaining > 0) behaviour.remaining -= 1;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) if (typeof value === "string") headers[name] = value;
    if (received.length < receivedMax) received.push({ transfer_id: transferId, headers, body, answered: mode, at_ms: Date.now() });
    if (mode === "ok") response.writeHead(204).end();
    else if (mode === "fail") response.writeHead(503, { "content-type": "text/plain" }).end("receiver failing on purpose");
    else if (mode === "down") request.socket.destroy();
    else {
      hung.add(response);
      setTimeout(() => {
        hung.delete(response);
        if (!response.writableEnded) response.writeHead(204).end();
      }, behaviour?.hangMs ?? 10_000);
    }
  };

  const onControl = async (request: IncomingMessage, response: ServerResponse, url: URL) => {
    if (request.method === "GET" && url.pathname === "/control/received") {
      const transferId = url.searchParams.get("transfer_id");
      const list = transferId === null ? received : received.filter((r) => r.transfer_id === transferId);
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(list));
      return;
    }
    if (request.method === "PUT" && url.pathname === "/control/behaviour") {
      const parsed = JSON.parse(await readBody(request)) as { transfer_id: string; mode: ReceiverMode; count: number; hang_ms?: number };
      behaviours.set(parsed.transfer_id, { mode: parsed.mode, remaining: parsed.count, hangMs: parsed.hang_ms ?? 10_000 });
      response.writeHead(204).end();
      return;
    }
    response.writeHead(404).end();
  };

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://receiver.local");
    const handled =
      request.method === "POST" && url.pathname === "/events" ? onEvent(request, response) : onControl(request, response, url);
    handled.catch(() => {
      if (!response.headersSent) response.writeHead(400).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/events`,
    controlUrl: `${origin}/control`,
    received,
    close: () =>
      new Promise((resolve) => {
        for (const response of hung) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
