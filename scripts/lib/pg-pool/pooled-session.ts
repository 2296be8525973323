// One client of the pooling proxy (see idle-backends.ts): its WebSocket is joined to a warm
// server connection when one with the same startup is idle, else to a new one whose startup is
// relayed and remembered. A server connection goes back to the pool only when the client left
// it provably idle: every Sync and Query answered, outside a transaction, no COPY, and then
// reset with DISCARD ALL (as PgBouncer's session mode does). Anything else closes it.
import { connect, type Socket } from "node:net";
import type { WebSocket } from "ws";
import { transactionStatus, WireFramer, type WireMessage } from "../db-faults/pg-wire.ts";
import type { Backend, IdleBackends } from "./idle-backends.ts";

/** Where the server listens: host and port, or a Unix socket path. */
export type Target = { host: string; port: number } | { path: string };

type Phase = "startup" | "opening" | "authenticating" | "relaying" | "resetting" | "piped" | "closed";

function message(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, "latin1");
  head.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([head, body]);
}

const int32 = (value: number): Buffer => {
  const bytes = Buffer.alloc(4);
  bytes.writeInt32BE(value);
  return bytes;
};

const askCleartextPassword = message("R", int32(3));
const authenticationOk = message("R", int32(0));
const readyIdle = message("Z", Buffer.from("I", "latin1"));
const discardAll = message("Q", Buffer.from("DISCARD ALL\0", "utf8"));
const wrongPassword = message("E", Buffer.from("SFATAL\0VFATAL\0C28P01\0Mpassword authentication failed (pooling proxy)\0\0", "utf8"));

export class PooledSession {
  private phase: Phase = "startup";
  private readonly client: WebSocket;
  private readonly target: Target;
  private readonly pool: IdleBackends;
  private readonly clientFramer = new WireFramer("client");
  /** Server messages are all typed; the framer's "server" side reads exactly those. */
  private readonly serverFramer = new WireFramer("server");
  private socket: Socket | undefined;
  private backend: Backend | undefined;
  private startupKey = "";
  private readonly greeting: Buffer[] = [];
  private password: Buffer | undefined;
  /** How the server authenticated the new backend: only none or a cleartext password is replayable. */
  private auth: "none" | "cleartext" | "other" = "none";
  /** Sync, Query and FunctionCall messages sent: each is answered by one ReadyForQuery. */
  private answersOwed = 0;
  /** Extended-protocol messages sent since the last Sync. */
  private unsynced = false;
  /** COPY or a malformed stream: never reused. */
  private tainted = false;
  private lastStatus = "I";
  private resetFailed = false;
  /** The client sent Terminate. */
  private terminated = false;

  constructor(client: WebSocket, target: Target, pool: IdleBackends) {
    this.client = client;
    this.target = target;
    this.pool = pool;
    client.on("message", (data: Buffer) => this.fromClient(data));
    client.on("close", () => this.clientGone());
    client.on("error", () => this.clientGone());
  }

  private readonly onServerData = (chunk: Buffer): void => this.fromServer(chunk);
  private readonly onServerGone = (): void => this.serverGone();

  private fromClient(data: Buffer): void {
    if (this.phase === "piped") {
      this.socket?.write(data);
      return;
    }
    if (this.phase === "closed" || this.phase === "resetting") return;
    let messages: WireMessage[];
    try {
      messages = this.clientFramer.push(data);
    } catch {
      this.abort();
      return;
    }
    const outgoing: Buffer[] = [];
    for (const entry of messages) this.onClientMessage(entry, outgoing);
    if (outgoing.length > 0) this.socket?.write(outgoing.length === 1 ? (outgoing[0] ?? Buffer.alloc(0)) : Buffer.concat(outgoing));
    if (this.terminated) {
      // The client said goodbye; its WebSocket may linger (workerd closes it lazily), so the
      // server connection is reset and pooled now, and the WebSocket closed from this side.
      this.clientGone();
      this.client.close();
    }
  }

  private onClientMessage(entry: WireMessage, outgoing: Buffer[]): void {
    switch (this.phase) {
      case "startup":
        this.start(entry, outgoing);
        return;
      case "opening":
        if (entry.type === "p") this.password = Buffer.from(entry.bytes);
        outgoing.push(entry.bytes);
        return;
      case "authenticating":
        this.authenticate(entry);
        return;
      case "relaying":
        this.account(entry, outgoing);
        return;
      default:
        return;
    }
  }

  /** The startup message picks a warm backend with the same startup, or opens one. */
  private start(entry: WireMessage, outgoing: Buffer[]): void {
    if (entry.type !== "startup") {
      // An SSL or cancel request: no pooling, a plain pipe from here on.
      this.phase = "piped";
      this.attach(connect(this.target));
      outgoing.push(entry.bytes);
      return;
    }
    this.startupKey = entry.bytes.toString("base64");
    const warm = this.pool.take(this.startupKey);
    if (warm) {
      this.backend = warm;
      this.attach(warm.socket);
      if (warm.password.length === 0) {
        this.welcome(warm);
        return;
      }
      this.phase = "authenticating";
      this.toClient(askCleartextPassword);
      return;
    }
    this.phase = "opening";
    this.attach(connect(this.target));
    outgoing.push(entry.bytes);
  }

  /** A warm backend is only handed to a client that presents the password that opened it. */
  private authenticate(entry: WireMessage): void {
    const backend = this.backend;
    if (!backend) return;
    if (entry.type !== "p" || !entry.bytes.equals(backend.password)) {
      this.detach();
      this.pool.give(backend);
      this.backend = undefined;
      this.toClient(wrongPassword);
      this.phase = "closed";
      this.client.close();
      return;
    }
    this.welcome(backend);
  }

  private welcome(backend: Backend): void {
    this.phase = "relaying";
    this.lastStatus = "I";
    this.toClient(Buffer.concat([authenticationOk, backend.greeting, readyIdle]));
  }

  private account(entry: WireMessage, outgoing: Buffer[]): void {
    switch (entry.type) {
      case "X":
        // Terminate would end the server process; the client leaving is enough.
        this.terminated = true;
        return;
      case "S":
        this.answersOwed++;
        this.unsynced = false;
        break;
      case "Q":
      case "F":
        this.answersOwed++;
        break;
      case "d":
      case "c":
      case "f":
        this.tainted = true;
        break;
      default:
        this.unsynced = true;
    }
    outgoing.push(entry.bytes);
  }

  private fromServer(chunk: Buffer): void {
    if (this.phase === "opening" || this.phase === "relaying" || this.phase === "piped") this.toClient(chunk);
    if (this.phase === "piped") return;
    let messages: WireMessage[];
    try {
      messages = this.serverFramer.push(chunk);
    } catch {
      this.tainted = true;
      this.abort();
      return;
    }
    for (const entry of messages) this.onServerMessage(entry);
  }

  private onServerMessage(entry: WireMessage): void {
    if (this.phase === "opening") {
      if (entry.type === "S" || entry.type === "K") this.greeting.push(Buffer.from(entry.bytes));
      if (entry.type === "R") {
        const code = entry.bytes.length >= 9 ? entry.bytes.readInt32BE(5) : -1;
        if (code === 3 && this.auth === "none") this.auth = "cleartext";
        else if (code !== 0) this.auth = "other";
      }
      if (entry.type === "Z" && this.socket) {
        // A SASL or MD5 exchange cannot be replayed to the next client: such a backend is never pooled.
        if (this.auth === "other") this.tainted = true;
        this.backend = {
          socket: this.socket,
          key: this.startupKey,
          greeting: Buffer.concat(this.greeting),
          password: this.password ?? Buffer.alloc(0),
        };
        this.phase = "relaying";
        this.lastStatus = transactionStatus(entry);
      }
      return;
    }
    if (this.phase === "relaying" && entry.type === "Z") {
      this.answersOwed--;
      this.lastStatus = transactionStatus(entry);
      return;
    }
    if (this.phase === "resetting") {
      if (entry.type === "E") this.resetFailed = true;
      if (entry.type === "Z") this.finishReset(transactionStatus(entry));
    }
  }

  private clientGone(): void {
    // Both "error" and "close" may come; the first one decides.
    if (this.phase === "resetting" || this.phase === "closed") return;
    const backend = this.backend;
    if (this.phase === "authenticating" && backend) {
      // Left before authenticating: the backend was never touched.
      this.detach();
      this.pool.give(backend);
      this.phase = "closed";
      return;
    }
    const reusable =
      this.phase === "relaying" &&
      backend !== undefined &&
      !this.tainted &&
      !this.unsynced &&
      this.answersOwed === 0 &&
      this.lastStatus === "I" &&
      !backend.socket.destroyed;
    if (!reusable) {
      this.abort();
      return;
    }
    this.phase = "resetting";
    backend.socket.write(discardAll);
  }

  private finishReset(status: string): void {
    const backend = this.backend;
    this.detach();
    this.phase = "closed";
    if (!backend) return;
    if (this.resetFailed || status !== "I") backend.socket.destroy();
    else this.pool.give(backend);
  }

  private serverGone(): void {
    if (this.phase === "closed") return;
    this.phase = "closed";
    this.detach();
    // close(), not terminate(): what the server said last (a FATAL error) still reaches the client.
    this.client.close();
  }

  private abort(): void {
    const socket = this.socket;
    this.detach();
    this.phase = "closed";
    socket?.destroy();
    this.client.terminate();
  }

  private attach(socket: Socket): void {
    socket.setNoDelay(true);
    socket.on("data", this.onServerData);
    socket.on("close", this.onServerGone);
    socket.on("error", this.onServerGone);
    this.socket = socket;
  }

  private detach(): void {
    const socket = this.socket;
    if (!socket) return;
    socket.off("data", this.onServerData);
    socket.off("close", this.onServerGone);
    socket.off("error", this.onServerGone);
    this.socket = undefined;
  }

  private toClient(bytes: Buffer): void {
    if (this.client.readyState === this.client.OPEN) this.client.send(bytes, { binary: true });
  }
}
