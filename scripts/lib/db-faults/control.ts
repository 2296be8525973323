// The fault proxy's control endpoint, on 127.0.0.1 only: tests inside workerd switch database
// faults on and off over HTTP, list the proxied connections (to aim pg_terminate_backend at the
// right backends), and tally what they did (faults, operations, outcomes) for `npm run chaos`.
//
//   POST   /faults       {kind, duration_ms, application_names?, latency_ms?, statement_pattern?, count?, end_with?}
//   DELETE /faults       end every fault now
//   GET    /connections  [{id, application_name, upstream_port}]
//   POST   /tally        {counters: {name: n}, maxima?: {name: n}}
//   GET    /tally        {counters, maxima, injected}
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";
import { readBody } from "../read-body.ts";
import { FaultRules, faultDurationMsMax, faultKinds, faultLatencyMsMax } from "./rules.ts";

const faultBody = z.strictObject({
  kind: z.enum(faultKinds),
  duration_ms: z.number().int().min(0).max(faultDurationMsMax),
  application_names: z.array(z.string().min(1).max(64)).max(8).nullable().optional(),
  latency_ms: z.number().int().min(0).max(faultLatencyMsMax).optional(),
  statement_pattern: z.string().min(1).max(200).optional(),
  count: z.number().int().min(1).max(10_000).nullable().optional(),
  end_with: z.enum(["flush", "reset"]).optional(),
});

// Invariant ids are upper case (`violation.I7`): a violation must reach the table, not fail the POST.
const counterName = z.string().regex(/^[A-Za-z0-9_.:-]{1,80}$/);
const tallyBody = z.strictObject({
  counters: z.record(counterName, z.number().int().min(0).max(1_000_000_000)),
  maxima: z.record(counterName, z.number().min(0).max(1e12)).optional(),
});

const requestBytesMax = 64 * 1024;

export interface Tally {
  counters: Record<string, number>;
  maxima: Record<string, number>;
  injected: Record<string, number>;
}

export interface FaultControl {
  /** http://127.0.0.1:port */
  url: string;
  rules: FaultRules;
  tally(): Tally;
  close(): Promise<void>;
}

export async function startFaultControl(rules: FaultRules = new FaultRules()): Promise<FaultControl> {
  const counters = new Map<string, number>();
  const maxima = new Map<string, number>();
  const tally = (): Tally => ({
    counters: Object.fromEntries(counters),
    maxima: Object.fromEntries(maxima),
    injected: rules.injected(),
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://control");
    const route = `${req.method ?? "GET"} ${url.pathname}`;
    switch (route) {
      case "POST /faults": {
        const body = faultBody.safeParse(await readJson(req));
        if (!body.success) return send(res, 400, { error: body.error.message });
        const input = body.data;
        const rule = rules.add({
          kind: input.kind,
          durationMs: input.duration_ms,
          applicationNames: input.application_names ?? null,
          ...(input.latency_ms === undefined ? {} : { latencyMs: input.latency_ms }),
          ...(input.statement_pattern === undefined ? {} : { statementPattern: input.statement_pattern }),
          count: input.count ?? null,
          ...(input.end_with === undefined ? {} : { endWith: input.end_with }),
        });
        return send(res, 201, { id: rule.id, until_ms: rule.untilMs });
      }
      case "DELETE /faults":
        rules.clear();
        return send(res, 200, { active: 0 });
      case "GET /faults":
        return send(res, 200, { active: rules.active().length, injected: rules.injected() });
      case "GET /connections": {
        const name = url.searchParams.get("application_name");
        const connections = rules.connections().filter((c) => name === null || c.applicationName === name);
        return send(res, 200, {
          connections: connections.map((c) => ({ id: c.id, application_name: c.applicationName, upstream_port: c.upstreamPort })),
        });
      }
      case "POST /tally": {
        const body = tallyBody.safeParse(await readJson(req));
        if (!body.success) return send(res, 400, { error: body.error.message });
        for (const [name, n] of Object.entries(body.data.counters)) counters.set(name, (counters.get(name) ?? 0) + n);
        for (const [name, n] of Object.entries(body.data.maxima ?? {})) maxima.set(name, Math.max(maxima.get(name) ?? 0, n));
        return send(res, 200, { ok: true });
      }
      case "GET /tally":
        return send(res, 200, tally());
      default:
        return send(res, 404, { error: `no route ${route}` });
    }
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    rules,
    tally,
    close: () =>
      new Promise<void>((resolve) => {
        rules.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const body = await readBody(req, requestBytesMax);
  if (body === null) return null;
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    return null;
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return;
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}
