// What both sandbox dialects (ours and Efí's) do around every call: reach the one sandbox object
// and answer with its computed reply. The wait happens here, not in the Durable Object, so a
// slow answer never holds the sandbox.
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { SandboxAnswer } from "./answers.ts";
import { resolveSandboxBrCode, type SandboxResolution } from "./br-codes.ts";
import { withCharge } from "./charges.ts";
import { sandboxInstanceName } from "./sandbox-object.ts";

/** A slow answer never holds a request longer than this, whatever PROVIDER_TIMEOUT_MS says. */
const answerDelayMsMax = 130_000;

export function sandbox(c: { env: Env }) {
  return c.env.SANDBOX.getByName(sandboxInstanceName);
}

export async function answerWith<E extends { Bindings: Env }>(c: Context<E>, answer: SandboxAnswer): Promise<Response> {
  const delayMs = Math.min(answer.answerDelayMs, answerDelayMsMax);
  if (delayMs > 0) await scheduler.wait(delayMs);
  return c.json(answer.body, answer.httpStatus as ContentfulStatusCode);
}

/** A dynamic code as its charge is now: the code's own resolution, with what its receiver changed since. */
export async function resolveLive(c: { env: Env }, text: string): Promise<SandboxResolution> {
  const resolved = resolveSandboxBrCode(text);
  if (!resolved.ok) return resolved;
  return withCharge(resolved, await sandbox(c).charge(resolved.payment.txid));
}
