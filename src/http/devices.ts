// The client's devices (CONTRACT §2 "Devices"): register the token's own device (in force after
// DEVICE_REGISTRATION_DELAY_MS), list them, remove one at once. A transfer from a device that is
// not registered is capped (drizzle/functions/device_rule_verdict.sql).
import { Hono } from "hono";
import { configuredOrThrow } from "../config/isolate.ts";
import { devicesPerAccountMax } from "../devices/bounds.ts";
import { devicesOf, registerDevice, removeDevice } from "../devices/store.ts";
import { notFound, problem } from "../web/problem.ts";
import type { AppEnv } from "./app-env.ts";
import { requestBusinessNowMs } from "./business-now.ts";
import { withRequestDb } from "./db.ts";
import { deviceIdParameter, devicePathId, registerDeviceBody } from "./device-requests.ts";
import { jsonRequestBody, jsonResponse, problemResponse, requestIdResponseHeader } from "./openapi/build.ts";
import { documented } from "./openapi/describe.ts";
import { clientAuthReadingBusinessTime, clientAuthResponses, clientSecurity } from "./openapi/security.ts";
import { jsonBody, validationProblem } from "./validation.ts";

export const deviceRoutes = new Hono<AppEnv>();

const noAccount = "The account of this token does not exist.";

const registerCurrentDeviceDoc = documented({
  operationId: "registerCurrentDevice",
  summary: "Register this device",
  description: [
    "Asks to register the device of your token (its `device_id` claim) under `name`. It is registered `DEVICE_REGISTRATION_DELAY_MS` (24 h by default) later: until `effective_at` it is `pending`, and its transfers are capped as a new device's (`NEW_DEVICE_TRANSFER_LIMIT_CENTS` each, `NEW_DEVICE_DAILY_LIMIT_CENTS` a day together with your other unregistered devices' transfers).",
    "Asking again for a device already pending or registered changes nothing (not its name, not its `effective_at`): `200` with the device. Concurrent requests register it once.",
    `At most ${devicesPerAccountMax} devices per account.`,
  ].join("\n\n"),
  tags: ["devices"],
  security: clientSecurity,
  requestBody: jsonRequestBody("RegisterDeviceRequest"),
  responses: {
    "202": jsonResponse("Asked for: the device, `pending` until `effective_at` (business time plus the delay).", "Device"),
    "200": jsonResponse("Already pending or registered: the device as it is.", "Device"),
    "400": problemResponse(
      "Malformed JSON or an invalid `name` (see `errors`), or (with `DEVICE_RULES` off) a token that names no device. Nothing was written.",
    ),
    ...clientAuthReadingBusinessTime,
    "413": problemResponse("The body is over 16 KiB."),
    "422": problemResponse(
      `The account already has ${devicesPerAccountMax} devices (\`type\` ends in \`/too-many-devices\`): remove one first.`,
    ),
  },
});

deviceRoutes.put("/current", registerCurrentDeviceDoc, jsonBody(registerDeviceBody), async (c) => {
  const deviceId = c.get("deviceId");
  // Only possible with DEVICE_RULES off: with them on such a token is refused before this.
  if (deviceId === null) return validationProblem(c, [{ field: "device_id", message: "the bearer token names no device" }]);
  const config = configuredOrThrow(c.env);
  // The delay is counted in business time, as the cap that reads effective_at is decided in it.
  const nowMs = await requestBusinessNowMs(c, config);
  const registered = await withRequestDb(c, (db) =>
    registerDevice(db, {
      accountId: c.get("accountId"),
      deviceId,
      name: c.req.valid("json").name,
      nowMs,
      delayMs: config.deviceRegistrationDelayMs,
      actor: null,
    }),
  );
  switch (registered.outcome) {
    case "created":
      return c.json(registered.device, 202);
    case "updated":
    case "unchanged":
      return c.json(registered.device, 200);
    case "too_many":
      return problem(c, 422, {
        type: "too-many-devices",
        detail: `This account already has ${devicesPerAccountMax} devices: remove one first.`,
      });
    case "account_not_found":
      return problem(c, 403, { type: "forbidden", detail: noAccount });
  }
});

const listDevicesDoc = documented({
  operationId: "listDevices",
  summary: "List your devices",
  description: "Every device registered or waiting to be, oldest first, with its state at business time now.",
  tags: ["devices"],
  security: clientSecurity,
  responses: { "200": jsonResponse("Your devices.", "DeviceList"), ...clientAuthReadingBusinessTime },
});

deviceRoutes.get("/", listDevicesDoc, async (c) => {
  const nowMs = await requestBusinessNowMs(c, configuredOrThrow(c.env));
  const list = await withRequestDb(c, (db) => devicesOf(db, c.get("accountId"), nowMs));
  if (list === null) return problem(c, 403, { type: "forbidden", detail: noAccount });
  return c.json(list);
});

const removeDeviceDoc = documented({
  operationId: "removeDevice",
  summary: "Remove one of your devices",
  description:
    "Removes the device at once, pending or registered: its next transfer is capped as a new device's, and registering it again waits `DEVICE_REGISTRATION_DELAY_MS` again.",
  tags: ["devices"],
  security: clientSecurity,
  parameters: [deviceIdParameter],
  responses: {
    "204": { description: "Removed.", headers: requestIdResponseHeader },
    "400": problemResponse("The device id is not 1 to 128 printable ASCII characters."),
    ...clientAuthResponses,
    "404": problemResponse("Your account has no device with this id."),
  },
});

deviceRoutes.delete("/:device_id", removeDeviceDoc, async (c) => {
  const path = devicePathId(c);
  if (!path.ok) return path.response;
  const removed = await withRequestDb(c, (db) => removeDevice(db, c.get("accountId"), path.deviceId, null));
  if (removed === "account_not_found") return problem(c, 403, { type: "forbidden", detail: noAccount });
  if (removed === "not_found") return notFound(c, "Your account has no device with this id.");
  return c.body(null, 204);
});
