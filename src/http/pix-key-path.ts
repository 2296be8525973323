// A Pix key named in the path with its type in the query (`/:key?type=cpf`), as the directory
// lookup and trusted recipients take it: validated and normalised exactly as a transfer's key
// (src/pix/key.ts), so the key stored or looked up is the one a transfer to it carries.
//
//   routes.get("/:key", doc, queryParams(pixKeyTypeQuery), (c) => { const key = pixKeyInPath(c); ... });
import type { Context } from "hono";
import { z } from "zod";
import { type PixKeyType, pixKeyTypes } from "../lib/ids.ts";
import { normalisePixKey } from "../pix/key.ts";
import { pathParameter, queryParameters } from "./openapi/build.ts";
import type { Parameter } from "./openapi/types.ts";
import { validationProblem } from "./validation.ts";

export const pixKeyTypeQuery = z.strictObject({ type: z.enum(pixKeyTypes) });

/** The path's `{key}` and the query's `type`, for a route's OpenAPI description. */
export const pixKeyPathParameters: Parameter[] = [
  pathParameter("key", "The Pix key, as for a transfer (CPF/CNPJ punctuation accepted; URL-encoded).", { type: "string" }),
  ...queryParameters(pixKeyTypeQuery, { type: "The key's type." }),
];

export type PixKeyInPath = { ok: true; pixKey: string; pixKeyType: PixKeyType } | { ok: false; response: Response };

/** The `:key` path parameter normalised for the `type` already validated by queryParams(pixKeyTypeQuery); a bad key is the 400. */
export function pixKeyInPath(c: Context, pixKeyType: PixKeyType): PixKeyInPath {
  const key = normalisePixKey(pixKeyType, c.req.param("key") ?? "");
  if (!key.ok) return { ok: false, response: validationProblem(c, [{ field: "key", message: key.message }]) };
  return { ok: true, pixKey: key.key, pixKeyType };
}
