// The test clock from outside, as a black-box client moves it (CONTRACT §4 "Test clock"). Only
// files of the `clock` project may advance it: the offset is global to the database, and every
// other project shares one (vitest.config.ts, docs/testing.md).
import { expect } from "vitest";
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
