import { describe, expect, it } from "vitest";
import { faultRetryDelayMs, faultRetryDelayMsMax } from "../../src/saga-runtime/fault-backoff.ts";

describe("fault retry delays", () => {
  it("double from 1 s up to 60 s, each between half and all of its backoff", () => {
    const backoffsMs = [1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000];
    for (const [i, backoffMs] of backoffsMs.entries()) {
      expect(faultRetryDelayMs(i + 1, () => 0)).toBe(backoffMs / 2);
      expect(faultRetryDelayMs(i + 1, () => 0.999_999)).toBe(backoffMs);
    }
    expect(faultRetryDelayMs(1_000, () => 0.999_999)).toBe(faultRetryDelayMsMax);
  });

  it("spreads sagas that met the same faults instead of waking them together", () => {
    const delaysMs = Array.from({ length: 1_000 }, () => faultRetryDelayMs(3));
    expect(Math.min(...delaysMs)).toBeGreaterThanOrEqual(2_000);
    expect(Math.max(...delaysMs)).toBeLessThanOrEqual(4_000);
    // 1,000 draws over 2,001 possible delays: a stampede would be a handful of values.
    expect(new Set(delaysMs).size).toBeGreaterThan(300);
  });
});
