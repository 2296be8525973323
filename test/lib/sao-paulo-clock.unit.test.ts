import { describe, expect, it } from "vitest";
import { saoPauloClock } from "../../src/lib/sao-paulo-clock.ts";

describe("the São Paulo clock of the Pix rules", () => {
  it.each([
    ["2026-11-29T23:00:00Z", "2026-11-29", 20 * 60],
    ["2026-11-30T02:59:00Z", "2026-11-29", 23 * 60 + 59],
    ["2026-11-30T03:00:00Z", "2026-11-30", 0],
    ["2026-11-30T08:59:00Z", "2026-11-30", 5 * 60 + 59],
    ["2026-11-30T09:00:00Z", "2026-11-30", 6 * 60],
  ])("reads %s as São Paulo day %s, minute %i (UTC-3, not UTC)", (instant, day, minuteOfDay) => {
    expect(saoPauloClock(Date.parse(instant))).toEqual({ day, minuteOfDay });
  });
});
