// The Idempotency-Key header (CONTRACT §2): 1 to 255 printable ASCII characters, required.
import type { Context } from "hono";
import { ProblemError } from "../web/problem.ts";

export const idempotencyKeyLengthMax = 255;
const printableAscii = /^[\x20-\x7e]+$/;

export function requireIdempotencyKey(c: Context): string {
  const key = c.req.header("Idempotency-Key");
  if (key === undefined || key.length === 0) {
    throw new ProblemError(400, {
      type: "validation-failed",
      detail: "The Idempotency-Key header is required.",
      errors: [{ field: "Idempotency-Key", message: "required" }],
    });
  }
  if (key.length > idempotencyKeyLengthMax || !printableAscii.test(key)) {
    throw new ProblemError(400, {
      type: "validation-failed",
      detail: `The Idempotency-Key header must be 1 to ${idempotencyKeyLengthMax} printable ASCII characters.`,
      errors: [{ field: "Idempotency-Key", message: "1 to 255 printable ASCII characters" }],
    });
  }
  return key;
}
