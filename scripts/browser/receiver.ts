// A real HTTP receiver on 127.0.0.1 for OPS_ALERT_URL: it keeps every alert it gets. It also
// serves a page on its own origin with a form aimed at the console, as a hostile site would.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedAlert {
  headers: IncomingHttpHeaders;
  rawBody: Uint8Array;
}

export interface Receiver {
  origin: string;
  alerts: ReceivedAlert[];
  /** Where a cross-origin page posts a resolve form for `transferId` to `consoleOrigin`. */
  setAttack(consoleOrigin: string, transferId: string): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const alerts: ReceivedAlert[] = [];
  let attackPage = "<!doctype html><title>nothing yet</title>";
  const server = createServer((request, response) => {
    if (request.method === "GET" && request.url === "/attack") {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(attackPage);
      return;
    }
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.method === "POST" && request.url === "/alerts")
        alerts.push({ headers: request.headers, rawBody: new Uint8Array(Buffer.concat(chunks)) });
      response.writeHead(request.method === "POST" ? 204 : 404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    alerts,
    setAttack(consoleOrigin, transferId) {
      attackPage = `<!doctype html><html lang="en"><title>Win a prize</title>
<form method="post" action="${consoleOrigin}/console/transfers/${transferId}/resolve">
<input type="hidden" name="outcome" value="sent"><input type="hidden" name="note" value="attacker">
<input type="hidden" name="confirm" value="yes"><button type="submit">Claim prize</button></form></html>`;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
