// The daily window: the previous São Paulo day, midnight to midnight local time, whatever the
// UTC date at the moment the cron fires.
import { describe, expect, it } from "vitest";
import { previousSaoPauloDay, saoPauloMidnightMs } from "../../src/reconciliation/window.ts";

describe("previousSaoPauloDay", () => {
  it("at 03:05 UTC (00:05 in São Paulo) covers the whole day that just ended", () => {
    expect(previousSaoPauloDay(Date.parse("2026-12-02T03:05:00Z"))).toEqual({
      day: "2026-12-01",
      fromMs: Date.parse("2026-12-01T03:00:00Z"),
      toMs: Date.parse("2026-12-02T03:00:00Z"),
    });
  });

  it("at 02:59 UTC the São Paulo date is still the day before", () => {
    expect(previousSaoPauloDay(Date.parse("2026-12-02T02:59:59Z")).day).toBe("2026-11-30");
  });

  it("one millisecond before and at São Paulo midnight fall in different windows", () => {
    const midnightMs = saoPauloMidnightMs("2026-12-02");
    expect(midnightMs).toBe(Date.parse("2026-12-02T03:00:00Z"));
    expect(previousSaoPauloDay(midnightMs).toMs).toBe(midnightMs);
    expect(previousSaoPauloDay(midnightMs - 1).toMs).toBe(midnightMs - 24 * 60 * 60 * 1000);
  });

  it("crosses months and years", () => {
    expect(previousSaoPauloDay(Date.parse("2027-01-01T12:00:00Z"))).toMatchObject({
      day: "2026-12-31",
      fromMs: Date.parse("2026-12-31T03:00:00Z"),
    });
  });

  it("follows the time zone database: São Paulo's summer time of 2018 had a 23-hour day", () => {
    // Clocks went forward at 2018-11-04 00:00 local (-03:00 to -02:00).
    const window = previousSaoPauloDay(Date.parse("2018-11-05T12:00:00Z"));
    expect(window.day).toBe("2018-11-04");
    expect(window.fromMs).toBe(Date.parse("2018-11-04T03:00:00Z"));
    expect(window.toMs).toBe(Date.parse("2018-11-05T02:00:00Z"));
  });

  it("and its end in 2019 a 25-hour day", () => {
    // Clocks went back at 2019-02-17 00:00 local (-02:00 to -03:00).
    const window = previousSaoPauloDay(Date.parse("2019-02-17T12:00:00Z"));
    expect(window).toEqual({ day: "2019-02-16", fromMs: Date.parse("2019-02-16T02:00:00Z"), toMs: Date.parse("2019-02-17T03:00:00Z") });
  });
});
