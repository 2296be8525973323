// The Neon driver coalesces writes and sends them from a timer; when the server has already
// dropped the connection (a restart, a terminated backend), that late send throws inside the
// timer, outside any caller, as an uncaught exception. Data for a closed socket is lost either
// way, and the driver learns of the close from the socket's events, so dropping it is safe.
export class TolerantWebSocket extends WebSocket {
  override send(data: string | ArrayBuffer | ArrayBufferView): void {
    if (this.readyState === WebSocket.CLOSING || this.readyState === WebSocket.CLOSED) return;
    super.send(data);
  }
}
