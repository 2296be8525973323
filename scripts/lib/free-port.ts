import type { AddressInfo } from "node:net";
import { createServer } from "node:net";

/** Asks the kernel for a free loopback port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** True when nothing listens on 127.0.0.1:port right now (a later bind may still lose a race). */
export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => {
      server.close(() => resolve(true));
    });
  });
}

/** The preferred port when it is free, else any free one. */
export async function preferredOrFreePort(preferredPort: number): Promise<number> {
  return (await isPortFree(preferredPort)) ? preferredPort : freePort();
}
