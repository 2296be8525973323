// One bounded HTTP exchange with a provider: a deadline over the whole call (headers and body),
// a cap on what is read, and the evidence operators see. Never throws.
import { readCappedText } from "../lib/capped-body.ts";
import type { AnswerBody, ProviderExchange } from "./classify.ts";
import type { ProviderEvidence } from "./port.ts";

export type Fetcher = (request: Request) => Promise<Response>;

/** Evidence is stored with every attempt: a longer body is kept as a truncated string. */
export const evidenceBodyCharsMax = 2 * 1024;
const errorCharsMax = 256;

export interface ExchangeRequest {
  url: string;
  method: "GET" | "PUT" | "POST";
  headers: Record<string, string>;
  body: string | null;
}

export interface ExchangeResult {
  exchange: ProviderExchange;
  evidence: ProviderEvidence;
}

type Attempt = { kind: "answered"; httpStatus: number; text: string; tooLarge: boolean } | { kind: "failed"; error: string };

export async function exchangeOnce(fetcher: Fetcher, spec: ExchangeRequest, timeoutMs: number): Promise<ExchangeResult> {
  const startedAtMs = Date.now();
  const signal = AbortSignal.timeout(timeoutMs);
  // A redirect is not an answer of this API, and following it would resend the bearer token.
  const request = new Request(spec.url, { method: spec.method, headers: spec.headers, body: spec.body, signal, redirect: "manual" });
  let httpStatus: number | null = null;
  const attempt = async (): Promise<Attempt> => {
    try {
      const response = await fetcher(request);
      httpStatus = response.status;
      const read = await readCappedText(response);
      return { kind: "answered", httpStatus: response.status, ...read };
    } catch (error) {
      return { kind: "failed", error: describeError(error) };
    }
  };
  // Raced rather than trusted to the signal: a fetcher may ignore it (a loopback binding, a test).
  const deadline = new Promise<"timed_out">((resolve) => {
    if (signal.aborted) resolve("timed_out");
    signal.addEventListener("abort", () => resolve("timed_out"), { once: true });
  });
  const result = await Promise.race([attempt(), deadline]);
  const durationMs = Date.now() - startedAtMs;
  if (result === "timed_out" || (result.kind === "failed" && signal.aborted)) {
    return {
      exchange: { kind: "timed_out" },
      evidence: { httpStatus, durationMs, body: null, error: `timeout after ${timeoutMs} ms` },
    };
  }
  if (result.kind === "failed") {
    return { exchange: { kind: "failed" }, evidence: { httpStatus: null, durationMs, body: null, error: result.error } };
  }
  const body = answerBody(result.text, result.tooLarge);
  return {
    exchange: { kind: "answered", httpStatus: result.httpStatus, body },
    evidence: { httpStatus: result.httpStatus, durationMs, body: evidenceBody(result.text, body), error: null },
  };
}

function answerBody(text: string, tooLarge: boolean): AnswerBody {
  if (tooLarge) return { kind: "too_large" };
  try {
    return { kind: "json", value: JSON.parse(text) as unknown };
  } catch {
    return { kind: "not_json" };
  }
}

function evidenceBody(text: string, body: AnswerBody): unknown {
  if (text === "") return null;
  if (body.kind === "json" && text.length <= evidenceBodyCharsMax) return body.value;
  return text.slice(0, evidenceBodyCharsMax);
}

function describeError(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.slice(0, errorCharsMax);
}
