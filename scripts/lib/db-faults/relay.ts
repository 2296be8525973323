// Relays one Neon-driver WebSocket to Postgres message by message, so the switchboard
// (rules.ts) can delay, hold, cut or swallow what passes. With no rule armed it forwards every
// message as it completes, in order, which is what the plain pipe in ws-proxy.ts does.
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import { isReadyForQuery, startupParameters, statementText, WireFramer, type WireMessage } from "./pg-wire.ts";
import type { FaultRules, FaultTarget } from "./rules.ts";

interface Held<T> {
  item: T;
  dueAtMs: number;
}

/** One direction's traffic, released in order once due and not held by a blackhole. */
class Lane<T> {
  private readonly queue: Held<T>[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly write: (item: T) => void;
  private readonly isHeld: () => boolean;

  constructor(write: (item: T) => void, isHeld: () => boolean) {
    this.write = write;
    this.isHeld = isHeld;
  }

  push(item: T, delayMs: number): void {
    this.queue.push({ item, dueAtMs: Date.now() + delayMs });
    this.pump();
  }

  pump(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.isHeld()) return;
    const nowMs = Date.now();
    while (this.queue.length > 0) {
      const head = this.queue[0];
      if (head === undefined || head.dueAtMs > nowMs) break;
      this.queue.shift();
      this.write(head.item);
    }
    const head = this.queue[0];
    if (head !== undefined) this.timer = setTimeout(() => this.pump(), head.dueAtMs - nowMs);
  }

  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.queue.length = 0;
  }
}

export function relayWithFaults(client: Duplex, tcp: Socket, rules: FaultRules): void {
  const id = rules.nextTargetId();
  let applicationName: string | null = null;
  let closed = false;
  /** After a drop_reply statement: the server's answer is read and thrown away, then the cut. */
  let swallowing: WireFramer | null = null;
  const clientFramer = new WireFramer("client");

  const target: FaultTarget = {
    id,
    applicationName: () => applicationName,
    upstreamPort: () => tcp.localPort ?? null,
    reset: (reason) => close(reason),
    wake: () => {
      toServer.pump();
      toClient.pump();
    },
  };
  const toServer = new Lane<WireMessage>(
    (message) => forwardToServer(message),
    () => rules.isHeld(target),
  );
  const toClient = new Lane<Buffer>(
    (bytes) => {
      if (!client.destroyed) client.write(bytes);
    },
    () => rules.isHeld(target),
  );

  function close(_reason: string): void {
    if (closed) return;
    closed = true;
    toServer.stop();
    toClient.stop();
    rules.unregister(target);
    tcp.destroy();
    client.destroy();
  }

  /** The statement check happens as the bytes leave, so a delayed query is judged when it runs. */
  function forwardToServer(message: WireMessage): void {
    if (closed) return;
    const sql = statementText(message);
    const fault = sql === null ? null : rules.takeStatementFault(target, sql);
    if (fault === "cut_before") {
      close("cut_before");
      return;
    }
    if (fault === "drop_reply") swallowing = new WireFramer("server");
    tcp.write(message.bytes);
  }

  function onClientMessage(message: WireMessage): void {
    if (message.type === "startup") {
      applicationName = startupParameters(message).get("application_name") ?? null;
      if (!rules.admit(target)) return;
    }
    toServer.push(message, rules.latencyMs(target));
  }

  function onServerBytes(chunk: Buffer): void {
    if (swallowing !== null) {
      // The statement ran (and committed): cut the connection once its reply is complete.
      if (swallowing.push(chunk).some(isReadyForQuery)) close("drop_reply");
      return;
    }
    toClient.push(chunk, rules.latencyMs(target));
  }

  rules.register(target);
  tcp.setNoDelay(true);
  client.on("data", (chunk: Buffer) => {
    if (closed) return;
    try {
      for (const message of clientFramer.push(chunk)) onClientMessage(message);
    } catch {
      close("framing");
    }
  });
  tcp.on("data", (chunk: Buffer) => {
    if (closed) return;
    try {
      onServerBytes(chunk);
    } catch {
      close("framing");
    }
  });
  for (const side of [client, tcp]) {
    side.on("error", () => close("error"));
    // A WebSocket closed by workerd (an aborted object) only ends the stream's readable side:
    // without this, its Postgres backend would stay connected for good.
    side.on("end", () => close("ended"));
    side.on("close", () => close("closed"));
  }
}
