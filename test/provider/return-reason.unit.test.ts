import { describe, expect, it } from "vitest";
import { returnReasonOf } from "../../src/provider/return-reason.ts";

describe("return reasons", () => {
  it.each([
    ["MD06", "returned_by_recipient"],
    ["FR01", "fraud"],
    ["fr01", "fraud"],
    ["BE08", "operational_failure"],
    ["SL02", "other"],
    ["AM09", "other"],
    ["ORIGINAL", "returned_by_recipient"],
    ["MED_FRAUDE", "fraud"],
    ["MED_OPERACIONAL", "operational_failure"],
    ["RETIRADA", "other"],
    ["fraud", "fraud"],
    ["returned_by_recipient", "returned_by_recipient"],
    [null, "other"],
    [undefined, "other"],
  ] as const)("maps %s to %s", (code, reason) => {
    expect(returnReasonOf(code)).toBe(reason);
  });
});
