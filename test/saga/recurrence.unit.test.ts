// The dates of a recurring transfer's occurrences: weekly steps of 7 days, monthly steps that keep
// the first date's day of the month, or take a shorter month's last day without losing it.
import { describe, expect, it } from "vitest";
import { saoPauloClock } from "../../src/lib/sao-paulo-clock.ts";
import { occurrenceDate } from "../../src/saga/recurrence.ts";
import { runWindowEndsAtMs, saoPauloMidnightMs, scheduledRunAtMs } from "../../src/saga/schedule.ts";

const datesOf = (first: string, frequency: "weekly" | "monthly", count: number) =>
  Array.from({ length: count }, (_, i) => occurrenceDate(first, frequency, i + 1));

describe("the dates of a recurrence's occurrences", () => {
  it("starts on the first date", () => {
    expect(occurrenceDate("2027-03-15", "weekly", 1)).toBe("2027-03-15");
    expect(occurrenceDate("2027-03-15", "monthly", 1)).toBe("2027-03-15");
  });

  it("steps weekly by 7 days, across months and years", () => {
    expect(datesOf("2027-12-20", "weekly", 4)).toEqual(["2027-12-20", "2027-12-27", "2028-01-03", "2028-01-10"]);
  });

  it("keeps the anchor day monthly: Jan 31 -> Feb 28 -> Mar 31 -> Apr 30", () => {
    expect(datesOf("2027-01-31", "monthly", 4)).toEqual(["2027-01-31", "2027-02-28", "2027-03-31", "2027-04-30"]);
  });

  it("takes February 29 in a leap year, and the 28th otherwise", () => {
    expect(datesOf("2027-12-30", "monthly", 3)).toEqual(["2027-12-30", "2028-01-30", "2028-02-29"]);
    expect(datesOf("2028-01-29", "monthly", 14)[12]).toBe("2029-01-29");
    expect(datesOf("2028-01-29", "monthly", 14)[13]).toBe("2029-02-28");
  });

  it("carries a day of 29 or 30 back after February, and keeps days up to 28 everywhere", () => {
    expect(datesOf("2027-01-30", "monthly", 3)).toEqual(["2027-01-30", "2027-02-28", "2027-03-30"]);
    expect(datesOf("2027-01-28", "monthly", 13).every((d) => d.endsWith("-28"))).toBe(true);
  });

  it("crosses years, up to the 60th occurrence five years on", () => {
    expect(occurrenceDate("2027-11-30", "monthly", 4)).toBe("2028-02-29");
    expect(occurrenceDate("2027-01-31", "monthly", 60)).toBe("2031-12-31");
    expect(occurrenceDate("2027-01-01", "weekly", 60)).toBe("2028-02-18");
  });

  it("refuses what is no date or no occurrence", () => {
    expect(() => occurrenceDate("2027-02-30", "monthly", 2)).toThrow(/calendar date/);
    expect(() => occurrenceDate("2027-02-01", "monthly", 0)).toThrow(/occurrence/);
  });
});

describe("an occurrence's evening retry slot", () => {
  const ids = Array.from({ length: 200 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`);

  it("falls between 18:00 and 20:00 of its day, São Paulo time", () => {
    for (const id of ids) {
      const local = saoPauloClock(scheduledRunAtMs("2027-03-15", id, "recurring_retry"));
      expect(local.day).toBe("2027-03-15");
      expect(local.minuteOfDay).toBeGreaterThanOrEqual(18 * 60);
      expect(local.minuteOfDay).toBeLessThan(20 * 60);
    }
  });

  it("closes its window at 20:00", () => {
    expect(runWindowEndsAtMs("2027-03-15", "recurring_retry")).toBe(saoPauloMidnightMs("2027-03-15") + 20 * 3_600_000);
  });
});
