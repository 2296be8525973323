// The WebSocket the Neon driver speaks Postgres through. Two jobs:
//
// 1. Coalescing. The driver writes each protocol message separately (an extended query is
//    Parse, Bind, Describe, Execute, Flush, Sync: six writes). Sent as they come, that is six
//    WebSocket frames, six relay writes and as many server wake-ups per query. The driver's own
//    `coalesceWrites` batches them from a timer, which adds a timer tick to every round trip
//    (about 1 ms in Node). Here the writes of one synchronous burst go out as one frame at the
//    end of the current microtask queue: the same bytes, in the same order, without the wait.
// 2. Tolerance. A write to a socket the server already closed (a restart, a terminated
//    backend) would throw outside any caller, as an uncaught exception. Data for a closed
//    socket is lost either way, and the driver learns of the close from the socket's events,
//    so dropping it is safe.
export class TolerantWebSocket extends WebSocket {
  private pending: Uint8Array[] = [];

  override send(data: string | ArrayBuffer | ArrayBufferView): void {
    if (typeof data === "string") {
      this.flush();
      this.sendNow(data);
      return;
    }
    const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    if (this.pending.length === 0) queueMicrotask(() => this.flush());
    // Copied: the driver may reuse its buffer once send() returns.
    this.pending.push(bytes.slice());
  }

  private flush(): void {
    const parts = this.pending;
    if (parts.length === 0) return;
    this.pending = [];
    if (parts.length === 1 && parts[0]) {
      this.sendNow(parts[0]);
      return;
    }
    const joined = new Uint8Array(parts.reduce((total, part) => total + part.byteLength, 0));
    let offset = 0;
    for (const part of parts) {
      joined.set(part, offset);
      offset += part.byteLength;
    }
    this.sendNow(joined);
  }

  private sendNow(data: string | Uint8Array): void {
    if (this.readyState === WebSocket.CLOSING || this.readyState === WebSocket.CLOSED) return;
    super.send(data);
  }
}
