// Just enough of the Postgres wire protocol (v3) for the fault proxy: cut a byte stream into
// messages, read the startup message's parameters (application_name tells the saga's
// connections apart), the SQL of a Query or Parse, and the ReadyForQuery that ends a reply.
// The proxy only sees plain protocol because local connections never negotiate TLS.

/** One complete message as it travelled, with its type (`startup` for the untyped first ones). */
export interface WireMessage {
  type: string;
  bytes: Buffer;
}

const sslRequestCode = 80877103;
const gssEncRequestCode = 80877104;
const cancelRequestCode = 80877102;
/** A real message is far smaller; a larger length means we lost the framing. */
const messageBytesMax = 64 * 1024 * 1024;

/**
 * Accumulates chunks and returns the complete messages they finish. The client side starts with
 * untyped messages (startup, or an SSL/GSS request before it); the server side never does.
 */
export class WireFramer {
  private pending: Buffer = Buffer.alloc(0);
  private untypedFirst: boolean;

  constructor(side: "client" | "server") {
    this.untypedFirst = side === "client";
  }

  push(chunk: Buffer): WireMessage[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const messages: WireMessage[] = [];
    for (;;) {
      const next = this.untypedFirst ? this.takeUntyped() : this.takeTyped();
      if (next === null) return messages;
      messages.push(next);
    }
  }

  private takeUntyped(): WireMessage | null {
    if (this.pending.length < 8) return null;
    const length = this.pending.readInt32BE(0);
    if (length < 8 || length > messageBytesMax) throw new Error(`bad startup length ${length}`);
    if (this.pending.length < length) return null;
    const bytes = this.pending.subarray(0, length);
    this.pending = this.pending.subarray(length);
    const code = bytes.readInt32BE(4);
    // After an SSL or GSS request another untyped message follows; after startup, typed ones.
    if (code !== sslRequestCode && code !== gssEncRequestCode) this.untypedFirst = false;
    const type = code === sslRequestCode ? "ssl_request" : code === cancelRequestCode ? "cancel" : "startup";
    return { type, bytes };
  }

  private takeTyped(): WireMessage | null {
    if (this.pending.length < 5) return null;
    const length = this.pending.readInt32BE(1);
    if (length < 4 || length > messageBytesMax) throw new Error(`bad message length ${length}`);
    if (this.pending.length < 1 + length) return null;
    const bytes = this.pending.subarray(0, 1 + length);
    this.pending = this.pending.subarray(1 + length);
    return { type: String.fromCharCode(bytes[0] ?? 0), bytes };
  }
}

/** The startup message's parameters (user, database, application_name, ...). */
export function startupParameters(message: WireMessage): Map<string, string> {
  const parameters = new Map<string, string>();
  if (message.type !== "startup") return parameters;
  const fields = message.bytes.subarray(8).toString("utf8").split("\0");
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const key = fields[i];
    const value = fields[i + 1];
    if (key === undefined || key === "" || value === undefined) break;
    parameters.set(key, value);
  }
  return parameters;
}

/** The SQL a client message asks to run: Query ('Q') or Parse ('P'), else null. */
export function statementText(message: WireMessage): string | null {
  const body = message.bytes.subarray(5);
  if (message.type === "Q") return body.toString("utf8").replace(/\0$/, "");
  if (message.type === "P") {
    // Parse: statement name \0 query \0 parameter types...
    const nameEnd = body.indexOf(0);
    if (nameEnd < 0) return null;
    const queryEnd = body.indexOf(0, nameEnd + 1);
    return body.subarray(nameEnd + 1, queryEnd < 0 ? undefined : queryEnd).toString("utf8");
  }
  return null;
}

/** ReadyForQuery: the server finished the statement, its transaction committed or aborted. */
export function isReadyForQuery(message: WireMessage): boolean {
  return message.type === "Z";
}

/** A ReadyForQuery's transaction status: "I" idle, "T" in a transaction, "E" in a failed one. */
export function transactionStatus(message: WireMessage): string {
  return String.fromCharCode(message.bytes[5] ?? 0);
}
