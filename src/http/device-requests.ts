// The device routes' inputs (CONTRACT §2 "Devices", §5): a name to register with, and a device
// id in a path, validated alike for clients and operators.
import type { Context } from "hono";
import { z } from "zod";
import { deviceNameLengthMax } from "../devices/bounds.ts";
import { deviceIdPattern } from "../lib/ids.ts";
import { pathParameter } from "./openapi/build.ts";
import { validationProblem } from "./validation.ts";

export const registerDeviceBody = z.strictObject({
  name: z
    .string()
    .min(1)
    .max(deviceNameLengthMax)
    .regex(/\S/, "must not be blank")
    .describe(`How the customer knows the device, 1 to ${deviceNameLengthMax} characters`),
});

export const deviceIdParameter = pathParameter("device_id", "The device's `device_id`: 1 to 128 printable ASCII characters.", {
  type: "string",
  minLength: 1,
  maxLength: 128,
  pattern: "^[\\x20-\\x7e]+$",
});

/** The `device_id` path parameter, or the 400 that answers it (nothing is written). */
export function devicePathId(c: Context): { ok: true; deviceId: string } | { ok: false; response: Response } {
  const deviceId = c.req.param("device_id") ?? "";
  if (deviceIdPattern.test(deviceId)) return { ok: true, deviceId };
  return { ok: false, response: validationProblem(c, [{ field: "device_id", message: "1 to 128 printable ASCII characters" }]) };
}
