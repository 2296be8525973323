// The test clock from outside, as a black-box client moves it (CONTRACT §4 "Test clock"). Only
// files of the `clock` project may advance it: the offset is global to the database, and every
// other project shares one (vitest.config.ts, docs/testing.md).
import { expect } from "vitest";
import { saoPauloClock } from "../../src/lib/sao-paulo-clock.ts";
import { saoPauloMidnightMs } from "../../src/saga/schedule.ts";
import { call } from "./api.ts";

export interface ClockAnswer {
  now: string;
  offset_ms: number;
}

/** Moves business time forward by `advanceMs` through `POST /sandbox/clock`; returns its answer. */
export async function advanceClock(advanceMs: number): Promise<ClockAnswer> {
  const response = await call("/sandbox/clock", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ advance_ms: advanceMs }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as ClockAnswer;
}

/** Business time in epoch milliseconds, as `GET /sandbox/clock` tells it. */
export async function businessNow(): Promise<number> {
  return Date.parse((await clockAnswer()).now);
}

export async function clockAnswer(): Promise<ClockAnswer> {
  const response = await call("/sandbox/clock");
  expect(response.status).toBe(200);
  return (await response.json()) as ClockAnswer;
}

/**
 * Moves business time to the next São Paulo `hh:mm` after now (tomorrow's when today's has
 * passed), so a test reaches a time of day without assuming where earlier files left the clock.
 */
export async function advanceToSaoPaulo(hhmm: string): Promise<number> {
  const [hours = 0, minutes = 0] = hhmm.split(":").map(Number);
  const nowMs = await businessNow();
  const today = saoPauloMidnightMs(saoPauloClock(nowMs).day) + (hours * 60 + minutes) * 60_000;
  const targetMs = today > nowMs ? today : today + 86_400_000;
  const answer = await advanceClock(targetMs - nowMs);
  return Date.parse(answer.now);
}

/** Moves business time forward to `atMs` (it must be ahead of business now); returns the advance's answer. */
export async function advanceClockTo(atMs: number): Promise<ClockAnswer> {
  const advanceMs = atMs - (await businessNow());
  if (advanceMs < 1) throw new Error(`business time is already past ${new Date(atMs).toISOString()}`);
  return advanceClock(advanceMs);
}

/** The instant São Paulo's clock reads `hour`:00 on `day` (YYYY-MM-DD). */
export function saoPauloAtMs(day: string, hour: number): number {
  return saoPauloMidnightMs(day) + hour * 3_600_000;
}
