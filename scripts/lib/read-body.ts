// A request body read whole, up to a bound: null when it is larger.
import type { IncomingMessage } from "node:http";

export async function readBody(req: IncomingMessage, bytesMax: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    bytes += buffer.length;
    if (bytes > bytesMax) return null;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}
