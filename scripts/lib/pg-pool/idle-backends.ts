// Warm PostgreSQL server connections kept between clients by the local WebSocket proxy (tests,
// `npm start`, the bench; production's queries never pass through it). It pools per session,
// as PgBouncer's session mode does: a client keeps one server process until it disconnects, and
// the process is reused after DISCARD ALL. Neon's pooled endpoint runs PgBouncer in transaction
// mode, handing server processes between clients at each transaction's end. The two differ only
// for session state kept across transactions (plain SET, session advisory locks, named prepared
// statements, LISTEN), and the Worker keeps none: each query is its own transaction, its locks
// and settings are transaction-scoped (pg_advisory_xact_lock, SET LOCAL), and the migrator, which
// holds a session lock, uses the direct endpoint. What this reproduces is the cost both modes
// remove: without it every local connection forked a backend, authenticated and compiled our
// functions again (docs/performance.md: 5 ms for the first transfer_apply of a backend against
// 1.9 ms for the next).
import type { Socket } from "node:net";

/** A server connection that finished its startup, with what a reusing client must be told. */
export interface Backend {
  socket: Socket;
  /** The exact startup message that opened it: only an identical one may reuse it. */
  key: string;
  /** ParameterStatus and BackendKeyData messages of its startup, replayed to each new client. */
  greeting: Buffer;
  /** The PasswordMessage that authenticated it; a reusing client must present the same. */
  password: Buffer;
}

/** Idle backends kept per startup key, beyond which a returned one is closed. */
const idlePerKeyMax = 32;
/** An idle backend unused this long is closed: the pool must not pin server processes. */
const idleMsMax = 30_000;

interface Idle {
  backend: Backend;
  timer: NodeJS.Timeout;
  onGone: () => void;
}

/** Reads (and drops) what an idle server says, so its socket flows and its close is seen. */
const discard = (): void => undefined;

export class IdleBackends {
  private readonly idle = new Map<string, Idle[]>();
  private closed = false;

  /** The most recently returned live backend for this startup, or none. */
  take(key: string): Backend | undefined {
    const list = this.idle.get(key);
    while (list && list.length > 0) {
      const entry = list.pop();
      if (!entry) break;
      this.forget(entry);
      if (!entry.backend.socket.destroyed) return entry.backend;
    }
    return undefined;
  }

  /** Keeps a backend that is idle (ReadyForQuery 'I') and reset, or closes it if full. */
  give(backend: Backend): void {
    const list = this.idle.get(backend.key) ?? [];
    if (this.closed || list.length >= idlePerKeyMax || backend.socket.destroyed) {
      backend.socket.destroy();
      return;
    }
    const entry: Idle = {
      backend,
      timer: setTimeout(() => this.drop(entry), idleMsMax),
      // A backend terminated while idle (pg_terminate_backend, a restart) leaves the pool.
      onGone: () => this.drop(entry),
    };
    backend.socket.on("close", entry.onGone);
    backend.socket.on("error", entry.onGone);
    backend.socket.on("data", discard);
    list.push(entry);
    this.idle.set(backend.key, list);
  }

  /** Closes every idle backend; later returns are closed at once. */
  close(): void {
    this.closed = true;
    for (const list of this.idle.values()) for (const entry of list) this.drop(entry);
    this.idle.clear();
  }

  private drop(entry: Idle): void {
    const list = this.idle.get(entry.backend.key);
    const index = list?.indexOf(entry) ?? -1;
    if (list && index >= 0) list.splice(index, 1);
    this.forget(entry);
    entry.backend.socket.destroy();
  }

  private forget(entry: Idle): void {
    clearTimeout(entry.timer);
    entry.backend.socket.off("close", entry.onGone);
    entry.backend.socket.off("error", entry.onGone);
    entry.backend.socket.off("data", discard);
  }
}
