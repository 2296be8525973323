// The local stand-in for Neon's edge, in front of a plain local PostgreSQL: a WebSocket-to-TCP
// proxy for the driver's Pool (Postgres over WebSocket), and on the same port `POST /sql`, the
// HTTP query path `neon()` uses (http-sql/). Local development and tests only: production talks
// to Neon.
// Given a fault switchboard (the chaos tests), it relays message by message so faults can be
// injected; without one it is a plain pipe. The Worker's statements take the HTTP path, so the
// WebSocket sessions here are the tests' and the bench's own: nothing to gain from pooling them.
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { connect, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import { createWebSocketStream, WebSocketServer } from "ws";
import { relayWithFaults } from "./db-faults/relay.ts";
import type { FaultRules } from "./db-faults/rules.ts";
import { startSqlEndpoint } from "./http-sql/endpoint.ts";

export interface WsProxy {
  /** Value for the Worker's NEON_WS_PROXY variable: host:port of this proxy (WebSocket and /sql). */
  address: string;
  close(): Promise<void>;
}

/** Only loopback targets are relayed: the proxy must never become an open relay. */
function isLoopbackTarget(host: string): boolean {
  return host === "127.0.0.1" || host === "localhost" || host === "::1";
}

export interface WsProxyOptions {
  /** Relay through this switchboard (latency, blackhole, resets, lost replies); never pooled. */
  faults?: FaultRules;
}

export async function startWsProxy(port = 0, options: WsProxyOptions = {}): Promise<WsProxy> {
  const sql = startSqlEndpoint(options.faults);
  const http: Server = createServer((req, res) => {
    if (req.method === "POST" && new URL(req.url ?? "/", "http://proxy").pathname === "/sql") {
      sql.handle(req, res);
      return;
    }
    res.writeHead(426).end("websocket, or POST /sql");
  });
  const wss = new WebSocketServer({ server: http });
  wss.on("connection", (socket, request) => {
    const target = new URL(request.url ?? "/", "http://proxy").searchParams.get("address") ?? "";
    const separator = target.lastIndexOf(":");
    const host = target.slice(0, separator);
    const targetPort = Number(target.slice(separator + 1));
    if (!isLoopbackTarget(host) || !Number.isInteger(targetPort)) {
      socket.close(1008, "target not allowed");
      return;
    }
    const stream = createWebSocketStream(socket);
    if (options.faults) {
      relayWithFaults(stream, connect({ host, port: targetPort }), options.faults);
      return;
    }
    pipe(stream, connect(serverAddress(host, targetPort)));
  });
  await new Promise<void>((resolve) => http.listen(port, "127.0.0.1", resolve));
  const { port: boundPort } = http.address() as AddressInfo;
  return {
    address: `127.0.0.1:${boundPort}`,
    close: async () => {
      await new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close();
        http.close(() => resolve());
        http.closeAllConnections();
      });
      await sql.close();
    },
  };
}

/**
 * A loopback server's Unix socket when it has one (PostgreSQL's default, in /tmp): the same
 * server without the TCP stack, which costs the proxy and every backend CPU per message on a
 * machine whose cores the database also needs.
 */
function serverAddress(host: string, port: number): { path: string } | { host: string; port: number } {
  const path = `/tmp/.s.PGSQL.${port}`;
  return existsSync(path) ? { path } : { host, port };
}

/** Bytes both ways until either side closes, then both close. */
function pipe(client: Duplex, server: Socket): void {
  server.setNoDelay(true);
  client.pipe(server).pipe(client);
  const closeBoth = () => {
    server.destroy();
    client.destroy();
  };
  for (const side of [client, server]) {
    side.on("error", closeBoth);
    side.on("close", closeBoth);
  }
}
