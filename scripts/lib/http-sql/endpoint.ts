// The local stand-in for Neon's HTTP SQL endpoint (`POST /sql`, what `neon()` and
// `neonConfig.fetchEndpoint` talk to), served by the dev proxy over the embedded PostgreSQL.
// Its differences from Neon are in docs/local-database.md. Given a fault switchboard (the
// chaos tests), every request passes it as a connection would: delayed, held, cut, or run
// with its reply lost.
import type { IncomingMessage, ServerResponse } from "node:http";
import pg from "pg";
import { HttpExchange, StatementCut } from "../db-faults/http-exchange.ts";
import type { FaultRules } from "../db-faults/rules.ts";
import { readBody } from "../read-body.ts";
import { Backends, execute, socketOfClient } from "./backends.ts";
import { errorFields, parseSqlRequest, requestBytesMax } from "./protocol.ts";

export interface SqlEndpoint {
  handle(req: IncomingMessage, res: ServerResponse): void;
  close(): Promise<void>;
}

export function startSqlEndpoint(faults?: FaultRules): SqlEndpoint {
  const backends = new Backends({ tcpOnly: faults !== undefined });
  return {
    handle: (req, res) => {
      serve(backends, faults, req, res).catch((error: unknown) => {
        if (!res.headersSent) send(res, 500, { message: `stand-in failure: ${String(error)}` });
      });
    },
    close: () => backends.close(),
  };
}

async function serve(backends: Backends, faults: FaultRules | undefined, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readBody(req, requestBytesMax);
  if (body === null) return send(res, 413, { message: `request over ${requestBytesMax} bytes` });
  const request = parseSqlRequest(req.headers, body.toString("utf8"));
  if (!request.ok) return send(res, 400, { message: request.message });
  const pool = backends.poolFor(request.connectionString);
  if (pool === null) return send(res, 400, { message: "connection string refused: a postgres URL on loopback only" });
  const statements = request.kind === "single" ? [request.statement] : request.statements;
  const batch = request.kind === "batch" ? request.options : null;

  const exchange = faults ? new HttpExchange(faults, applicationNameOf(request.connectionString), req.socket) : null;
  if (exchange && !(await exchange.arrive())) return;
  let answer: { status: number; body: unknown };
  try {
    const results = await execute(pool, statements, batch, {
      connected: (client) => exchange?.useBackend(socketOfClient(client)),
      released: () => exchange?.useBackend(undefined),
      beforeEach: (statement) => exchange?.beforeStatement(statement.query),
    });
    answer = { status: 200, body: request.kind === "single" ? results[0] : { results } };
  } catch (error) {
    if (error instanceof StatementCut) return;
    answer = failure(error);
  }
  if (exchange && !(await exchange.depart())) return;
  send(res, answer.status, answer.body);
}

/** A SQL error is HTTP 400 with PostgreSQL's fields, as Neon answers; losing the server is 502. */
function failure(error: unknown): { status: number; body: unknown } {
  if (error instanceof pg.DatabaseError) {
    const body: Record<string, unknown> = { message: error.message };
    for (const field of errorFields) if (error[field] !== undefined) body[field] = error[field];
    return { status: 400, body };
  }
  return { status: 502, body: { message: `lost the connection to PostgreSQL: ${error instanceof Error ? error.message : String(error)}` } };
}

function applicationNameOf(connectionString: string): string | null {
  try {
    return new URL(connectionString).searchParams.get("application_name");
  } catch {
    return null;
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}
