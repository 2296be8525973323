// The client transfer routes' request schemas (CONTRACT §2), validated once at the edge.
import { z } from "zod";
import { sealedCursorCharsMax } from "../lib/cursor-seal.ts";
import { pixKeyTypes } from "../lib/ids.ts";
import { pixKeyInputLengthMax } from "../pix/key.ts";
import { maxBodyBytes } from "./body-limit.ts";

export const descriptionLengthMax = 140;
export const listLimitMax = 100;

/** The body limit (16 KiB) bounds it; the parser refuses a code over 512 as `/invalid-br-code`. */
const brCodeInputLengthMax = maxBodyBytes;

export const createTransferBody = z
  .strictObject({
    amount_cents: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe("Required with a key, and with a BR Code that carries no amount; with one that does, omit it or give the same"),
    pix_key: z.string().min(1).max(pixKeyInputLengthMax).optional().describe("Required unless br_code is given"),
    pix_key_type: z.enum(pixKeyTypes).optional().describe("Required unless br_code is given"),
    br_code: z
      .string()
      .max(brCodeInputLengthMax)
      .optional()
      .describe(
        "A Pix Copia e Cola (EMV BR Code) instead of pix_key and pix_key_type: a static code names the key, a dynamic one is resolved by the provider",
      ),
    description: z.string().max(descriptionLengthMax).nullable().optional(),
    scheduled_for: z
      .string()
      .max(10)
      .nullable()
      .optional()
      .describe("YYYY-MM-DD: a São Paulo date after today, at most 365 days ahead. Schedules the transfer for that day"),
  })
  .superRefine(requirePayeeFields)
  // What the refinement checks, for the OpenAPI document: exactly one of the two ways to name the payee.
  .meta({ oneOf: [{ required: ["amount_cents", "pix_key", "pix_key_type"] }, { required: ["br_code"] }] });

/** Either the key fields or br_code, never both; each missing field is named. */
function requirePayeeFields(
  body: {
    amount_cents?: number | undefined;
    pix_key?: string | undefined;
    pix_key_type?: string | undefined;
    br_code?: string | undefined;
  },
  ctx: z.RefinementCtx,
): void {
  if (body.br_code !== undefined) {
    for (const field of ["pix_key", "pix_key_type"] as const) {
      if (body[field] !== undefined) ctx.addIssue({ code: "custom", path: [field], message: "not with br_code: the code names the key" });
    }
    return;
  }
  for (const field of ["amount_cents", "pix_key", "pix_key_type"] as const) {
    if (body[field] === undefined)
      ctx.addIssue({ code: "custom", path: [field], message: "required (or br_code instead of the key fields)" });
  }
}

export const listTransfersQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(listLimitMax).default(20),
  cursor: z.string().max(sealedCursorCharsMax, "not a cursor from this API").optional(),
});
