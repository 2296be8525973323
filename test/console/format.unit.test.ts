// How the console writes money, times and durations.
import { describe, expect, it } from "vitest";
import { formatCents, formatCount, formatDuration, formatTime, formatWindow } from "../../src/console/format.ts";

describe("console formatting", () => {
  it.each([
    [0, "R$ 0,00"],
    [5, "R$ 0,05"],
    [2_500, "R$ 25,00"],
    [123_456, "R$ 1.234,56"],
    [1_000_000_000, "R$ 10.000.000,00"],
    [-6_789, "−R$ 67,89"],
  ])("writes %i centavos as %s", (cents, text) => {
    expect(formatCents(cents)).toBe(text);
  });

  it.each([
    [0, "0 s"],
    [45_900, "45 s"],
    [12 * 60_000 + 5_000, "12 min 5 s"],
    [3 * 3_600_000, "3 h 0 min"],
    [2 * 86_400_000 + 4 * 3_600_000 + 59_000, "2 d 4 h"],
    [-5_000, "0 s"],
  ])("writes %i ms as %s", (durationMs, text) => {
    expect(formatDuration(durationMs)).toBe(text);
  });

  it("counts with the plural everywhere but at one", () => {
    expect(formatCount(0, "send")).toBe("0 sends");
    expect(formatCount(1, "status check")).toBe("1 status check");
    expect(formatCount(4, "status check")).toBe("4 status checks");
  });

  it("writes times in UTC to the second, and a missing one as a dash", () => {
    expect(formatTime("2026-11-20T14:03:05.123Z")).toBe("2026-11-20 14:03:05 UTC");
    expect(formatTime(null)).toBe("—");
  });

  it.each([
    [15, "15 min"],
    [60, "1 h"],
    [90, "90 min"],
    [1_440, "24 h"],
  ])("names a window of %i minutes %s", (minutes, text) => {
    expect(formatWindow(minutes)).toBe(text);
  });
});
