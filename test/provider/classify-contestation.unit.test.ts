// The generic API's contestation answers are untrusted: only a readable 2xx about this very
// contestation says anything; everything else is unknown, asked again later.
import { describe, expect, it } from "vitest";
import type { ProviderExchange } from "../../src/provider/classify.ts";
import { classifyContest, classifyDecision } from "../../src/provider/classify-contestation.ts";

const evidence = { httpStatus: null, durationMs: 1, body: null, error: null };
const answered = (httpStatus: number, value: unknown): ProviderExchange => ({
  kind: "answered",
  httpStatus,
  body: { kind: "json", value },
});

describe("classifyContest", () => {
  it("takes a 201 or 200 with an id as submitted; anything else is unknown", () => {
    expect(classifyContest(answered(201, { id: "c-1", status: "submitted" }), evidence)).toMatchObject({
      kind: "submitted",
      pspRef: "c-1",
    });
    expect(classifyContest(answered(200, { id: "c-1", status: "accepted" }), evidence)).toMatchObject({ kind: "submitted", pspRef: "c-1" });
    expect(classifyContest(answered(201, { status: "submitted" }), evidence)).toMatchObject({ kind: "unknown", why: "malformed_body" });
    expect(classifyContest(answered(201, { id: "bad id!", status: "submitted" }), evidence).kind).toBe("unknown");
    expect(classifyContest(answered(409, { code: "not_confirmed" }), evidence)).toMatchObject({ kind: "unknown", why: "http_409" });
    expect(classifyContest(answered(503, {}), evidence).kind).toBe("unknown");
    expect(classifyContest({ kind: "timed_out" }, evidence)).toMatchObject({ kind: "unknown", why: "timeout" });
  });
});

describe("classifyDecision", () => {
  it("reads a decision about this contestation only", () => {
    expect(classifyDecision("c-1", answered(200, { id: "c-1", status: "accepted" }), evidence)).toMatchObject({
      kind: "decided",
      outcome: "accepted",
    });
    expect(classifyDecision("c-1", answered(200, { id: "c-1", status: "submitted" }), evidence).kind).toBe("pending");
    expect(classifyDecision("c-1", answered(200, { id: "c-2", status: "rejected" }), evidence).kind).toBe("unknown");
    expect(classifyDecision("c-1", answered(200, { id: "c-1", status: "maybe" }), evidence).kind).toBe("unknown");
    expect(classifyDecision("c-1", answered(404, { code: "not_found" }), evidence).kind).toBe("unknown");
    expect(classifyDecision("c-1", { kind: "failed" }, evidence).kind).toBe("unknown");
  });
});
