// The test clock (CONTRACT §4 "Test clock"): GET /sandbox/clock tells business time, POST moves
// it forward. Mounted under sandboxRoutes, so with the sandbox off both are 404 like every
// /sandbox path. Unlike the PSP routes these are our own API's: bad input is a 400 problem.
import { Hono } from "hono";
import { z } from "zod";
import { advanceTestClock, clockAdvanceMsMax } from "../clock/advance.ts";
import { testClockOffsetMs } from "../clock/business-time.ts";
import { log } from "../lib/log.ts";
import { sweep } from "../sweeper.ts";
import { withRequestDb } from "./db.ts";
import { jsonRequestBody, jsonResponse, problemResponse } from "./openapi/build.ts";
import { documented } from "./openapi/describe.ts";
import { sandboxOperation } from "./openapi/sandbox.ts";
import type { SandboxEnv } from "./sandbox-env.ts";
import { jsonBody } from "./validation.ts";

export const clockAdvanceBody = z.strictObject({ advance_ms: z.number().int().min(1).max(clockAdvanceMsMax) });

/** Business time as both routes answer it, from the offset just read or just written. */
function clockAnswer(offsetMs: number): { now: string; offset_ms: number } {
  return { now: new Date(Date.now() + offsetMs).toISOString(), offset_ms: offsetMs };
}

export const sandboxClockRoutes = new Hono<SandboxEnv>();

const getClockDoc = documented(
  sandboxOperation({
    operationId: "sandboxClock",
    summary: "Business time: the test clock",
    description:
      "`now` is business time, the instant every calendar rule is decided at (São Paulo days and night windows, limit increases, schedules, delays, windows): the wall clock plus `offset_ms`, which only `POST /sandbox/clock` moves.",
    security: [],
    responses: { "200": jsonResponse("Business time and the offset.", "SandboxClock") },
  }),
);

sandboxClockRoutes.get("/", getClockDoc, async (c) => c.json(clockAnswer(await withRequestDb(c, testClockOffsetMs))));

const advanceClockDoc = documented(
  sandboxOperation({
    operationId: "sandboxAdvanceClock",
    summary: "Move business time forward",
    description: `Adds \`advance_ms\` (an integer from 1 to ${clockAdvanceMsMax}, 400 days) to the test clock's offset; it never goes back, and concurrent advances all apply. The offset is kept in the database, so it survives restarts. What became due is looked for right after the answer. The saga's own timings (backoff, deadline, grace, provider timeout) and event retries stay on the wall clock.`,
    security: [],
    requestBody: jsonRequestBody("SandboxClockRequest"),
    responses: {
      "200": jsonResponse("Business time after the advance.", "SandboxClock"),
      "400": problemResponse("`advance_ms` missing, not an integer, or outside 1 to 400 days: nothing moved."),
    },
  }),
);

sandboxClockRoutes.post("/", advanceClockDoc, jsonBody(clockAdvanceBody), async (c) => {
  const advanceMs = c.req.valid("json").advance_ms;
  const offsetMs = await withRequestDb(c, (db) => advanceTestClock(db, advanceMs));
  log(c, "test_clock_advanced", { advance_ms: advanceMs, offset_ms: offsetMs });
  // After the answer: whatever the advance made due gets poked (CONTRACT §4: within 5 s).
  c.executionCtx.waitUntil(sweep(c.env, { waitUntil: (promise) => c.executionCtx.waitUntil(promise) }, "clock_advanced"));
  return c.json(clockAnswer(offsetMs));
});
