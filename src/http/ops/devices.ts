// Operators register a customer's device at once (onboarding, a branch visit) and remove one
// (CONTRACT §5, §2 "Devices"); each change is audited as `device_registered` / `device_removed`
// in the same transaction as the write (drizzle/functions/device_register.sql, device_remove.sql).
import { Hono } from "hono";
import { configuredOrThrow } from "../../config/isolate.ts";
import { devicesPerAccountMax } from "../../devices/bounds.ts";
import { registerDevice, removeDevice } from "../../devices/store.ts";
import { accountIdPattern } from "../../lib/ids.ts";
import { notFound, problem } from "../../web/problem.ts";
import type { AppEnv } from "../app-env.ts";
import { requestBusinessNowMs } from "../business-now.ts";
import { withRequestDb } from "../db.ts";
import { deviceIdParameter, devicePathId, registerDeviceBody } from "../device-requests.ts";
import { accountIdParameter, jsonRequestBody, jsonResponse, problemResponse, requestIdResponseHeader } from "../openapi/build.ts";
import { documented } from "../openapi/describe.ts";
import { businessTimeUnreadableResponse, opsAuthResponses, opsSecurity } from "../openapi/security.ts";
import { jsonBody, validationProblem } from "../validation.ts";

export const opsDeviceRoutes = new Hono<AppEnv>();

const badIds = problemResponse("The account id is not 1 to 64 of [A-Za-z0-9_-], or the device id not 1 to 128 printable ASCII characters.");

const opsRegisterDeviceDoc = documented({
  operationId: "opsRegisterDevice",
  summary: "Register a customer's device at once",
  description: [
    "Registers the device for the account now, without the client's `DEVICE_REGISTRATION_DELAY_MS` wait: for onboarding or a customer identified in person. A device already pending becomes registered now and takes `name`; one already registered is renamed if `name` differs.",
    "Audited as `device_registered` whenever something changed (the device as it was is kept in the record).",
  ].join("\n\n"),
  tags: ["operators"],
  security: opsSecurity,
  parameters: [accountIdParameter, deviceIdParameter],
  requestBody: jsonRequestBody("RegisterDeviceRequest"),
  responses: {
    "201": jsonResponse("Registered: the device.", "Device"),
    "200": jsonResponse("It existed: the device, now registered.", "Device"),
    "400": problemResponse(
      "The account id is not 1 to 64 of [A-Za-z0-9_-], the device id not 1 to 128 printable ASCII characters, or the body is invalid (see `errors`).",
    ),
    ...opsAuthResponses,
    "404": problemResponse("No such account."),
    "413": problemResponse("The body is over 16 KiB."),
    "422": problemResponse(`The account already has ${devicesPerAccountMax} devices (\`type\` ends in \`/too-many-devices\`).`),
    "503": businessTimeUnreadableResponse,
  },
});

opsDeviceRoutes.put("/:id/devices/:device_id", opsRegisterDeviceDoc, jsonBody(registerDeviceBody), async (c) => {
  const accountId = c.req.param("id");
  if (!accountIdPattern.test(accountId)) return validationProblem(c, [{ field: "id", message: "1 to 64 of [A-Za-z0-9_-]" }]);
  const path = devicePathId(c);
  if (!path.ok) return path.response;
  // Registered at business now: the instant the cap (and the client's delay) are judged in.
  const nowMs = await requestBusinessNowMs(c, configuredOrThrow(c.env));
  const registered = await withRequestDb(c, (db) =>
    registerDevice(db, {
      accountId,
      deviceId: path.deviceId,
      name: c.req.valid("json").name,
      nowMs,
      delayMs: 0,
      actor: c.get("actor"),
    }),
  );
  switch (registered.outcome) {
    case "created":
      return c.json(registered.device, 201);
    case "updated":
    case "unchanged":
      return c.json(registered.device, 200);
    case "too_many":
      return problem(c, 422, { type: "too-many-devices", detail: `This account already has ${devicesPerAccountMax} devices.` });
    case "account_not_found":
      return notFound(c, "No such account.");
  }
});

const opsRemoveDeviceDoc = documented({
  operationId: "opsRemoveDevice",
  summary: "Remove a customer's device",
  description:
    "Removes the device at once, pending or registered: its next transfer is capped as a new device's. Audited as `device_removed`.",
  tags: ["operators"],
  security: opsSecurity,
  parameters: [accountIdParameter, deviceIdParameter],
  responses: {
    "204": { description: "Removed.", headers: requestIdResponseHeader },
    "400": badIds,
    ...opsAuthResponses,
    "404": problemResponse("No such account, or the account has no device with this id."),
    "503": businessTimeUnreadableResponse,
  },
});

opsDeviceRoutes.delete("/:id/devices/:device_id", opsRemoveDeviceDoc, async (c) => {
  const accountId = c.req.param("id");
  if (!accountIdPattern.test(accountId)) return validationProblem(c, [{ field: "id", message: "1 to 64 of [A-Za-z0-9_-]" }]);
  const path = devicePathId(c);
  if (!path.ok) return path.response;
  // The audit keeps the device's state as it was at business now.
  const nowMs = await requestBusinessNowMs(c, configuredOrThrow(c.env));
  const removed = await withRequestDb(c, (db) => removeDevice(db, accountId, path.deviceId, { actor: c.get("actor"), nowMs }));
  if (removed === "account_not_found") return notFound(c, "No such account.");
  if (removed === "not_found") return notFound(c, "The account has no device with this id.");
  return c.body(null, 204);
});
