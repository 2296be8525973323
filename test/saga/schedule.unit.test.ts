// When a scheduled transfer runs, and which dates a client may choose, at fixed instants.
import { describe, expect, it } from "vitest";
import { saoPauloClock } from "../../src/lib/sao-paulo-clock.ts";
import { saoPauloMidnightMs, scheduledRunAtMs, scheduleRefusal } from "../../src/saga/schedule.ts";

const ids = Array.from({ length: 200 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`);

describe("the run slots of a scheduled day", () => {
  it("finds São Paulo's midnight (UTC-3 today; UTC-2 on a 2018 summer day, from the zone's history)", () => {
    expect(new Date(saoPauloMidnightMs("2027-03-15")).toISOString()).toBe("2027-03-15T03:00:00.000Z");
    expect(new Date(saoPauloMidnightMs("2027-01-01")).toISOString()).toBe("2027-01-01T03:00:00.000Z");
    expect(new Date(saoPauloMidnightMs("2018-12-20")).toISOString()).toBe("2018-12-20T02:00:00.000Z");
  });

  it("runs every transfer in the early hours of its day (00:00 to 06:00), and its retry from 18:00 to 21:00", () => {
    for (const id of ids) {
      const early = saoPauloClock(scheduledRunAtMs("2027-03-15", id, "early"));
      expect(early.day).toBe("2027-03-15");
      expect(early.minuteOfDay).toBeGreaterThanOrEqual(0);
      expect(early.minuteOfDay).toBeLessThan(6 * 60);
      const evening = saoPauloClock(scheduledRunAtMs("2027-03-15", id, "evening"));
      expect(evening.day).toBe("2027-03-15");
      expect(evening.minuteOfDay).toBeGreaterThanOrEqual(18 * 60);
      expect(evening.minuteOfDay).toBeLessThan(21 * 60);
    }
  });

  it("spreads a day's transfers over the window instead of starting them all at 00:00:00", () => {
    const minutes = ids.map((id) => saoPauloClock(scheduledRunAtMs("2027-03-15", id, "early")).minuteOfDay);
    const hours = new Set(minutes.map((minute) => Math.floor(minute / 60)));
    expect(hours).toEqual(new Set([0, 1, 2, 3, 4, 5]));
    expect(new Set(ids.map((id) => scheduledRunAtMs("2027-03-15", id, "early"))).size).toBeGreaterThan(195);
  });

  it("gives one transfer the same slots every time it is asked (an object that restarts re-arms the same)", () => {
    const id = ids[7] ?? "";
    expect(scheduledRunAtMs("2027-03-15", id, "early")).toBe(scheduledRunAtMs("2027-03-15", id, "early"));
    expect(scheduledRunAtMs("2027-03-15", id, "evening")).toBe(scheduledRunAtMs("2027-03-15", id, "evening"));
    expect(scheduledRunAtMs("2027-03-16", id, "early") - scheduledRunAtMs("2027-03-15", id, "early")).toBe(86_400_000);
  });
});

describe("the dates a client may schedule for", () => {
  const today = "2026-12-01";

  it.each([
    ["2026-12-02", "tomorrow"],
    ["2027-12-01", "365 days ahead"],
    ["2028-02-29", "a leap day (from a later today)"],
  ])("takes %s (%s)", (day, _why) => {
    expect(scheduleRefusal(day, day === "2028-02-29" ? "2027-12-31" : today)).toBeNull();
  });

  it.each([
    ["2026-12-01", "must be after today (2026-12-01, São Paulo)"],
    ["2026-11-30", "must be after today (2026-12-01, São Paulo)"],
    ["2027-12-02", "must be at most 365 days after today (2026-12-01, São Paulo)"],
    ["2027-02-29", "must be a calendar date, YYYY-MM-DD"],
    ["2026-13-01", "must be a calendar date, YYYY-MM-DD"],
    ["2026-12-1", "must be a calendar date, YYYY-MM-DD"],
    ["02/12/2026", "must be a calendar date, YYYY-MM-DD"],
    ["2026-12-02T00:00:00Z", "must be a calendar date, YYYY-MM-DD"],
  ])("refuses %s: %s", (day, message) => {
    expect(scheduleRefusal(day, today)).toBe(message);
  });
});
