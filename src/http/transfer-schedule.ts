// Scheduled transfers at the edge (CONTRACT §2): `scheduled_for` read against São Paulo's
// today, and POST /v1/transfers/:id/cancel, which goes through the transfer's own object so it
// serialises with the alarm that would run it.
import type { Context } from "hono";
import { saoPauloClock } from "../lib/sao-paulo-clock.ts";
import { scheduledRunAtMs, scheduleRefusal } from "../saga/schedule.ts";
import type { CancelResult } from "../saga-runtime/rpc-results.ts";
import { callObject } from "../web/object-call.ts";
import { problem } from "../web/problem.ts";
import type { AppEnv } from "./app-env.ts";
import { noSuchTransfer, ownTransfer } from "./own-transfer.ts";

export type ScheduleReading = { ok: true; schedule: { scheduledFor: string; runAtMs: number } | null } | { ok: false; message: string };

/** A transfer's schedule from the request's `scheduled_for`: its day and its first run's slot. */
export function readSchedule(scheduledFor: string | null, transferId: string, nowMs: number): ScheduleReading {
  if (scheduledFor === null) return { ok: true, schedule: null };
  const refusal = scheduleRefusal(scheduledFor, saoPauloClock(nowMs).day);
  if (refusal !== null) return { ok: false, message: refusal };
  return { ok: true, schedule: { scheduledFor, runAtMs: scheduledRunAtMs(scheduledFor, transferId, "early") } };
}

/** 422 `/too-many-scheduled` (CONTRACT §2): MAX_PENDING_SCHEDULED already wait; nothing was written. */
export function tooManyScheduled(c: Context<AppEnv>, pendingScheduledMax: number): Response {
  return problem(c, 422, {
    type: "too-many-scheduled",
    detail: `This account already has ${pendingScheduledMax} scheduled transfers waiting (recurring occurrences included); cancel one or wait for one to run.`,
  });
}

export async function cancelTransfer(c: Context<AppEnv>): Promise<Response> {
  const id = c.req.param("id") ?? "";
  const own = await ownTransfer(c, id);
  if (!own.found) return own.answer;
  const result = await callObject<CancelResult>(
    c,
    "cancel",
    () => c.env.TRANSFER_SAGA.getByName(id).cancel(),
    "The cancel could not be confirmed; try again.",
  );
  switch (result.outcome) {
    case "canceled":
      return c.body(result.responseBody, 200, { "content-type": "application/json" });
    case "not_scheduled":
      return problem(c, 409, { type: "conflict", detail: `Only a scheduled transfer can be canceled; this one is ${result.state}.` });
    case "not_found":
      return noSuchTransfer(c);
    case "unavailable":
      return problem(c, 503, {
        type: "unavailable",
        detail: "The cancel could not be confirmed; try again.",
        headers: { "Retry-After": "1" },
      });
  }
}
