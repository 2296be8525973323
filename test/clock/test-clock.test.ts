// The test clock's own rules (CONTRACT §4 "Test clock"): it moves only forward, by 1 ms to 400
// days, concurrent advances all apply, bad input moves nothing, and the offset lives in the
// database, so nothing a Worker holds in memory decides it.
import { describe, expect, it } from "vitest";
import { clockAdvanceMsMax } from "../../src/clock/advance.ts";
import { call } from "../support/api.ts";
import { advanceClock, clockAnswer } from "../support/clock.ts";
import { testPool } from "../support/db.ts";

const hourMs = 3_600_000;

function postClock(body: string): Promise<Response> {
  return call("/sandbox/clock", { method: "POST", headers: { "content-type": "application/json" }, body });
}

describe("the test clock", () => {
  it("adds an advance to the offset and tells business time as the wall clock plus it", async () => {
    const before = await clockAnswer();
    const advanced = await advanceClock(hourMs);
    expect(advanced.offset_ms).toBe(before.offset_ms + hourMs);
    const after = await clockAnswer();
    expect(after.offset_ms).toBe(advanced.offset_ms);
    const aheadMs = Date.parse(after.now) - Date.now();
    expect(aheadMs).toBeGreaterThan(after.offset_ms - 5_000);
    expect(aheadMs).toBeLessThanOrEqual(after.offset_ms);
  });

  it("applies concurrent advances all, none lost", async () => {
    const before = await clockAnswer();
    const answers = await Promise.all(Array.from({ length: 8 }, () => advanceClock(1_000)));
    expect((await clockAnswer()).offset_ms).toBe(before.offset_ms + 8_000);
    // Each advance saw its own sum: the additions were serialised, not overwritten.
    expect(new Set(answers.map((a) => a.offset_ms)).size).toBe(8);
  });

  it("accepts exactly 400 days", async () => {
    const before = await clockAnswer();
    expect((await advanceClock(clockAdvanceMsMax)).offset_ms).toBe(before.offset_ms + clockAdvanceMsMax);
  });

  it.each([
    ["zero", '{"advance_ms":0}'],
    ["backwards", '{"advance_ms":-1000}'],
    ["a fraction", '{"advance_ms":1.5}'],
    ["over 400 days", `{"advance_ms":${clockAdvanceMsMax + 1}}`],
    ["a string", '{"advance_ms":"3600000"}'],
    ["missing", "{}"],
    ["an unknown field", '{"advance_ms":1000,"rewind":true}'],
    ["not JSON", "advance"],
    ["empty", ""],
  ])("refuses %s with 400 problem+json and moves nothing", async (_name, body) => {
    const before = await clockAnswer();
    const response = await postClock(body);
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(await response.json()).toMatchObject({ status: 400, type: expect.stringMatching(/validation-failed$/) });
    expect((await clockAnswer()).offset_ms).toBe(before.offset_ms);
  });

  it("keeps the offset in the database, where every Worker and object reads it", async () => {
    const pool = testPool(1);
    try {
      const advanced = await advanceClock(2 * hourMs);
      const { rows } = await pool.query<{ offset_ms: string }>("SELECT offset_ms FROM test_clock");
      expect(rows.map((r) => Number(r.offset_ms))).toEqual([advanced.offset_ms]);
      // Another process moving the row (a restarted Worker's predecessor, another isolate) is
      // seen at once: nothing in this Worker's memory answers in the database's place.
      await pool.query("UPDATE test_clock SET offset_ms = offset_ms + 60000");
      expect((await clockAnswer()).offset_ms).toBe(advanced.offset_ms + 60_000);
    } finally {
      await pool.end();
    }
  });

  it("refuses to move the offset back, whoever writes", async () => {
    const pool = testPool(1);
    try {
      await expect(pool.query("UPDATE test_clock SET offset_ms = offset_ms - 1")).rejects.toThrow(/only moves forward/);
      await expect(pool.query("DELETE FROM test_clock")).rejects.toThrow(/only moves forward/);
      await expect(pool.query("TRUNCATE test_clock")).rejects.toThrow(/only moves forward/);
    } finally {
      await pool.end();
    }
  });

  it("refuses to rewrite its log of advances, whoever writes: a past moment's business time stays as it was", async () => {
    await advanceClock(1);
    const pool = testPool(1);
    try {
      await expect(pool.query("UPDATE test_clock_advances SET offset_ms = 0")).rejects.toThrow(/test_clock_advances is append-only/);
      await expect(pool.query("DELETE FROM test_clock_advances")).rejects.toThrow(/append-only/);
      await expect(pool.query("TRUNCATE test_clock_advances")).rejects.toThrow(/append-only/);
    } finally {
      await pool.end();
    }
  });
});
