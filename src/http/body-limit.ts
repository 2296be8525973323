// Bounds request bodies (CONTRACT §2: over 16 KiB is 413), before anything reads or buffers them.
//
//   app.use("/v1/*", limitBody());           // maxBodyBytes
//   app.use("/ops/*", limitBody(4 * 1024));  // a tighter bound where one fits
//
// hono's bodyLimit trusts Content-Length when present (workerd enforces it on real requests) and
// otherwise counts the streamed bytes, so a chunked body without Content-Length is bounded too.
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { problem } from "../web/problem.ts";

/** The largest request body accepted: a transfer request is a few hundred bytes. */
export const maxBodyBytes = 16 * 1024;

export function limitBody(bodyBytesMax: number = maxBodyBytes): MiddlewareHandler {
  if (!Number.isSafeInteger(bodyBytesMax) || bodyBytesMax < 0)
    throw new RangeError(`limitBody: bodyBytesMax must be a non-negative integer, got ${bodyBytesMax}`);
  return bodyLimit({
    maxSize: bodyBytesMax,
    onError: (c) =>
      problem(c, 413, {
        type: "payload-too-large",
        detail: `The request body is larger than ${bodyBytesMax} bytes.`,
      }),
  });
}
