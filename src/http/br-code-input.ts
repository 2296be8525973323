// A pasted Pix Copia e Cola, read at the edge (CONTRACT §2): parsed and CRC-checked here; a
// static code names its key, a dynamic one is resolved through the provider (no money moves,
// and never inside a database transaction). Used by POST /v1/transfers and the preview.
import type { Context } from "hono";
import { log } from "../lib/log.ts";
import { parseBrCode } from "../pix/br-code.ts";
import type { BrCodeProblem } from "../pix/br-code-model.ts";
import type { ResolvedBrCode } from "../provider/br-code-resolution.ts";
import { providerFor } from "../provider/select.ts";
import { problem } from "../web/problem.ts";
import type { AppEnv } from "./app-env.ts";
import { fieldErrorsMax } from "./validation.ts";

/** What a code asks for (the key and amount to pay, who the merchant says it is), and the code. */
export type ReadBrCode = ResolvedBrCode & {
  kind: "static" | "dynamic";
  /** The code as pasted, trimmed of surrounding whitespace. */
  text: string;
};

export type ParsedInput =
  | { ok: true; kind: "static"; code: ReadBrCode }
  | { ok: true; kind: "dynamic"; text: string; merchantName: string; merchantCity: string; txid: string | null }
  | { ok: false; response: Response };

/** Seconds a client waits before asking again when the provider could not answer. */
export const resolveRetryAfterSeconds = 5;

/** Parses the code; a malformed one is a 400 `/invalid-br-code` naming each EMV field at fault. */
export function parseBrCodeInput(c: Context<AppEnv>, raw: string, field = "br_code"): ParsedInput {
  const parsed = parseBrCode(raw);
  if (!parsed.ok) {
    return {
      ok: false,
      response: problem(c, 400, {
        type: "invalid-br-code",
        detail: parsed.problems[0]?.message ?? "The BR Code is not valid.",
        errors: parsed.problems.slice(0, fieldErrorsMax).map((p) => ({ field, message: problemMessage(p) })),
      }),
    };
  }
  const code = parsed.code;
  if (code.kind === "dynamic") {
    return {
      ok: true,
      kind: "dynamic",
      text: code.text,
      merchantName: code.merchantName,
      merchantCity: code.merchantCity,
      txid: code.txid,
    };
  }
  return {
    ok: true,
    kind: "static",
    code: {
      kind: "static",
      text: code.text,
      pixKey: code.pixKey,
      pixKeyType: code.pixKeyType,
      amountCents: code.amountCents,
      merchantName: code.merchantName,
      merchantCity: code.merchantCity,
      txid: code.txid,
    },
  };
}

function problemMessage(p: BrCodeProblem): string {
  return p.at === "" ? p.message : `field ${p.at}: ${p.message}`;
}

export type ResolvedInput = { ok: true; code: ReadBrCode } | { ok: false; response: Response };

/**
 * Asks the provider what a dynamic code asks for. Its refusal (expired, already paid, unknown)
 * is a 422 `/br-code-unresolvable`; no answer is a 503 with Retry-After. Either way nothing is written.
 */
export async function resolveDynamicBrCode(c: Context<AppEnv>, input: Extract<ParsedInput, { kind: "dynamic" }>): Promise<ResolvedInput> {
  const resolution = await providerFor(c.env).resolveBrCode(input.text);
  const { evidence } = resolution;
  log(c, "br_code_resolve", {
    outcome:
      resolution.kind === "resolved"
        ? "resolved"
        : resolution.kind === "refused"
          ? `refused:${resolution.code}`
          : `unknown:${resolution.why}`,
    http_status: evidence.httpStatus,
    duration_ms: evidence.durationMs,
  });
  switch (resolution.kind) {
    case "resolved": {
      const { payment } = resolution;
      return {
        ok: true,
        code: {
          kind: "dynamic",
          text: input.text,
          pixKey: payment.pixKey,
          pixKeyType: payment.pixKeyType,
          amountCents: payment.amountCents,
          // The payload's receiver when the provider names it, else what the code itself says.
          merchantName: payment.merchantName ?? input.merchantName,
          merchantCity: payment.merchantCity ?? input.merchantCity,
          txid: payment.txid ?? input.txid,
        },
      };
    }
    case "refused":
      return {
        ok: false,
        response: problem(c, 422, {
          type: "br-code-unresolvable",
          detail: `The provider cannot pay this code (${resolution.code}): it may have expired or been paid already.`,
          errors: [{ field: "br_code", message: `refused by the provider: ${resolution.code}` }],
        }),
      };
    case "unknown":
      return {
        ok: false,
        response: problem(c, 503, {
          type: "unavailable",
          detail: "The provider could not resolve this code right now; nothing was written. Retry later.",
          headers: { "Retry-After": String(resolveRetryAfterSeconds) },
        }),
      };
  }
}
