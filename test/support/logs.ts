// What the code under test logged and sent out of band, captured inside the test.
import { vi } from "vitest";

type ConsoleLevel = "log" | "warn" | "error";

/** The lines logged at `levels`, kept off the test's output; vi.restoreAllMocks() ends the capture. */
export function captureLogs(levels: readonly ConsoleLevel[] = ["log", "error"]): string[] {
  const lines: string[] = [];
  for (const level of levels) {
    vi.spyOn(console, level).mockImplementation((line: unknown) => void lines.push(String(line)));
  }
  return lines;
}

/** The structured lines of one `event` logged at any level, read when called: what a route did beyond its answer. */
export function captureLogEvents(event: string): () => Record<string, unknown>[] {
  const lines = captureLogs(["log", "warn", "error"]);
  return () =>
    lines
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((record) => record.event === event);
}

/**
 * A poke runs after its webhook was answered, and files share a Worker, so another test's poke
 * may log while this one listens: a test reads only the lines about its own transfers...
 */
export function logsAbout(logs: () => Record<string, unknown>[], ...transferIds: readonly string[]): Record<string, unknown>[] {
  return logs().filter((record) => typeof record.idempotency_key === "string" && transferIds.includes(record.idempotency_key));
}

/** ...or the lines its own requests logged, told by the answers' X-Request-Id. */
export function logsOf(logs: () => Record<string, unknown>[], responses: readonly Response[]): Record<string, unknown>[] {
  const requestIds = new Set(responses.map((response) => response.headers.get("X-Request-Id")));
  return logs().filter((record) => typeof record.request_id === "string" && requestIds.has(record.request_id));
}

/** An alert receiver of the test's own: what an ops alert POSTed (each answered 204), once `settled()`. */
export function alertReceiver() {
  const received: Request[] = [];
  const scheduled: Promise<unknown>[] = [];
  const runtime = {
    waitUntil: (p: Promise<unknown>) => void scheduled.push(p),
    fetcher: async (request: Request) => {
      received.push(request);
      return new Response(null, { status: 204 });
    },
  };
  return { received, runtime, settled: () => Promise.all(scheduled) };
}
