// A TCP proxy that holds every chunk for a fixed delay in each direction, in order: loopback
// with a WAN-like round trip, to show what a design costs once each round trip is not free.
// Node timers fire no earlier than asked and often ~0.1-0.5 ms later, so the bench measures
// the round trip it actually got rather than assuming 2 x delayMs.
import { type AddressInfo, connect, createServer, type Server, type Socket } from "node:net";

export interface DelayProxy {
  port: number;
  /** The delay for chunks arriving from now on (the same proxy measured near and far). */
  setDelayMs(delayMs: number): void;
  /** Connections accepted so far. Only data is delayed, not the TCP handshake (see performance.md). */
  connectionsAccepted(): number;
  close(): Promise<void>;
}

interface Pending {
  chunk: Buffer;
  dueAtMs: number;
}

/** Forwards from `source` to `target`, each chunk `delayMs()` after it arrived, never reordered. */
function delayedPipe(source: Socket, target: Socket, delayMs: () => number): void {
  const queue: Pending[] = [];
  let timer: NodeJS.Timeout | undefined;
  const flushDue = (): void => {
    timer = undefined;
    const nowMs = performance.now();
    while (queue.length > 0 && (queue[0]?.dueAtMs ?? 0) <= nowMs) {
      const next = queue.shift();
      if (next && !target.destroyed) target.write(next.chunk);
    }
    const head = queue[0];
    if (head) timer = setTimeout(flushDue, Math.max(0, head.dueAtMs - nowMs));
  };
  source.on("data", (chunk: Buffer) => {
    const dueAtMs = performance.now() + delayMs();
    // A shorter delay set meanwhile never overtakes what is queued: order is kept.
    queue.push({ chunk, dueAtMs: Math.max(dueAtMs, queue.at(-1)?.dueAtMs ?? 0) });
    if (timer === undefined) timer = setTimeout(flushDue, Math.max(0, (queue[0]?.dueAtMs ?? dueAtMs) - performance.now()));
  });
  source.on("close", () => {
    if (timer !== undefined) clearTimeout(timer);
    target.destroy();
  });
}

export async function startDelayProxy(targetPort: number, initialDelayMs: number): Promise<DelayProxy> {
  const sockets = new Set<Socket>();
  let delayMsNow = initialDelayMs;
  const delayMs = (): number => delayMsNow;
  let accepted = 0;
  const server: Server = createServer((client) => {
    accepted += 1;
    const upstream = connect({ host: "127.0.0.1", port: targetPort });
    for (const socket of [client, upstream]) {
      socket.setNoDelay(true);
      sockets.add(socket);
      socket.on("error", () => socket.destroy());
      socket.on("close", () => sockets.delete(socket));
    }
    delayedPipe(client, upstream, delayMs);
    delayedPipe(upstream, client, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    setDelayMs: (next) => {
      delayMsNow = next;
    },
    connectionsAccepted: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
