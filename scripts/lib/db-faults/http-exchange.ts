// One request to the HTTP SQL stand-in as the fault switchboard sees it: a connection that lives
// for one exchange. It is scoped by the application_name of its connection string, delayed
// each way by a latency rule, held by a blackhole, cut by a reset, and its statements meet
// cut_before (never run, the socket cut) and drop_reply (run and committed, the reply never
// sent): the same faults, with the same meaning, as on a WebSocket connection (relay.ts).
import type { Socket } from "node:net";
import { sleep } from "../../../src/lib/sleep.ts";
import type { FaultRules, FaultTarget } from "./rules.ts";

/** Thrown by the statement hook: the statement must not run and the exchange is already cut. */
export class StatementCut extends Error {}

export class HttpExchange implements FaultTarget {
  readonly id: number;
  private readonly rules: FaultRules;
  private readonly name: string | null;
  private readonly socket: Socket;
  private backend: Socket | undefined;
  private closed = false;
  private dropReply = false;
  private waiters: (() => void)[] = [];

  constructor(rules: FaultRules, applicationName: string | null, socket: Socket) {
    this.rules = rules;
    this.id = rules.nextTargetId();
    this.name = applicationName;
    this.socket = socket;
  }

  applicationName(): string | null {
    return this.name;
  }

  /** The client port of the server connection running its statements, while it has one. */
  upstreamPort(): number | null {
    return this.backend?.localPort ?? null;
  }

  reset(_reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.rules.unregister(this);
    // A cut mid-statement cuts the server connection too, as a dropped WebSocket would.
    this.backend?.destroy();
    this.socket.destroy();
    this.wake();
  }

  wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }

  /** The request reached the proxy: false when a reset in force or a cut while held ended it. */
  async arrive(): Promise<boolean> {
    this.rules.register(this);
    if (!this.rules.admit(this)) return false;
    return this.pass();
  }

  /** The answer is ready: false when it must not be sent (a lost reply, a cut while held). */
  async depart(): Promise<boolean> {
    if (!(await this.pass())) return false;
    if (this.dropReply) {
      this.reset("drop_reply");
      return false;
    }
    this.closed = true;
    this.rules.unregister(this);
    return true;
  }

  /** The server connection it holds from now on (undefined: given back to the pool). */
  useBackend(socket: Socket | undefined): void {
    this.backend = socket;
    if (this.closed) socket?.destroy();
  }

  beforeStatement(sql: string): void {
    if (this.closed) throw new StatementCut("the exchange was cut");
    const fault = this.rules.takeStatementFault(this, sql);
    if (fault === "cut_before") {
      this.reset("cut_before");
      throw new StatementCut("cut before the statement ran");
    }
    if (fault === "drop_reply") this.dropReply = true;
  }

  /** One direction of the exchange: the latency in force, then as long as a blackhole holds it. */
  private async pass(): Promise<boolean> {
    const latencyMs = this.rules.latencyMs(this);
    if (latencyMs > 0) await sleep(latencyMs);
    while (!this.closed && this.rules.isHeld(this)) await new Promise<void>((resolve) => this.waiters.push(resolve));
    return !this.closed;
  }
}
