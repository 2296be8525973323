// Our record beside the provider's: which fields differ (a side that is silent never does), a
// divergence's and a provider answer's fields in both dialects, and the table that marks them.
import { describe, expect, it } from "vitest";
import { divergenceFields, divergenceSides } from "../../src/console/compare/divergence.ts";
import { compared, differingCount } from "../../src/console/compare/fields.ts";
import { answerFields, fateOf, lastDefinitiveCall } from "../../src/console/compare/provider-answer.ts";
import type { ProviderCall, TransferStory } from "../../src/console/data/story.ts";
import { Comparison } from "../../src/console/views/comparison.tsx";

const e2e = "E12345678202612021400abcdefghijk";
const otherE2e = "E12345678202612021400zzzzzzzzzzz";
const transferId = "0b7a3c1e-2f4d-4a5b-8c6d-7e8f9a0b1c2d";

describe("compared fields", () => {
  it("differ only when both sides state them and disagree", () => {
    expect(compared("Amount", "R$ 1,00", "R$ 1,00").differs).toBe(false);
    expect(compared("Amount", "R$ 1,00", "R$ 2,00").differs).toBe(true);
    expect(compared("Amount", "R$ 1,00", null)).toEqual({ label: "Amount", ours: "R$ 1,00", theirs: null, differs: false });
    expect(compared("End-to-end id", null, e2e)).toEqual({ label: "End-to-end id", ours: "—", theirs: e2e, differs: false });
    expect(differingCount([compared("a", "1", "2"), compared("b", "1", "1"), compared("c", "1", "3")])).toBe(2);
  });
});

describe("a divergence side by side", () => {
  const ours = {
    state: "compensated",
    amount_cents: 4_321,
    end_to_end_id: null,
    failure_reason: "not_sent",
    released_at: "2026-12-02T14:00:00.000Z",
  };
  const provider = { status: "confirmed", amount_cents: 4_321, end_to_end_id: e2e };

  it("paid after release: the outcome differs, the amount agrees, an id only the provider has is not a contradiction", () => {
    const sides = divergenceSides({ kind: "paid_after_release", ours, provider });
    const fields = divergenceFields(sides.ours, sides.provider);
    expect(fields.map((f) => [f.label, f.ours, f.theirs, f.differs])).toEqual([
      ["Outcome", "compensated (not_sent)", "confirmed", true],
      ["Amount", "R$ 43,21", "R$ 43,21", false],
      ["End-to-end id", "—", e2e, false],
    ]);
  });

  it("amount mismatch marks the amount; agreement on the fate is not marked", () => {
    const sides = divergenceSides({
      ours: { ...ours, state: "completed", failure_reason: null, end_to_end_id: e2e },
      provider: { ...provider, amount_cents: 4_000, end_to_end_id: otherE2e },
    });
    expect(divergenceFields(sides.ours, sides.provider).map((f) => f.differs)).toEqual([false, true, true]);
  });

  it("a side that is missing or unreadable is nothing, and the outcome differs", () => {
    const unknownKey = divergenceSides({ ours: null, provider });
    expect(divergenceFields(unknownKey.ours, unknownKey.provider)[0]).toEqual({
      label: "Outcome",
      ours: "no transfer of ours",
      theirs: "confirmed",
      differs: true,
    });
    const missing = divergenceSides({
      ours,
      provider: { status: "not_found", amount_cents: null, end_to_end_id: null, detail: "not on the statement" },
    });
    expect(divergenceFields(missing.ours, missing.provider)[0]?.theirs).toBe("not_found (not on the statement)");
    expect(divergenceSides("garbage")).toEqual({ ours: null, provider: null });
    expect(divergenceSides({ ours: { state: "lost" }, provider })).toEqual({
      ours: null,
      provider: expect.objectContaining({ status: "confirmed" }),
    });
  });
});

describe("a transfer against the provider's last definitive answer", () => {
  const story = {
    id: transferId,
    state: "completed",
    failure_reason: null,
    amount_cents: 2_500,
    end_to_end_id: e2e,
    pix_key: "100.000.001-08",
  } as unknown as TransferStory;
  const call = (outcome: string, body: unknown, kind: "send" | "status" = "status"): ProviderCall => ({
    kind,
    at: "2026-12-02T14:00:01.000Z",
    outcome,
    http_status: 200,
    duration_ms: 12,
    detail: { body, error: null },
  });

  it("takes the last call that said something, never an unknown", () => {
    const calls = [call("accepted", {}, "send"), call("confirmed", {}), call("unknown:timeout", null)];
    expect(lastDefinitiveCall(calls)?.outcome).toBe("confirmed");
    expect(lastDefinitiveCall([call("unknown:http_503", null)])).toBeNull();
    expect(lastDefinitiveCall([])).toBeNull();
  });

  it("reads the generic dialect: every field agrees with a completed transfer", () => {
    const body = { idempotency_key: transferId, amount_cents: 2_500, status: "confirmed", end_to_end_id: e2e, pix_key: "100.000.001-08" };
    const fields = answerFields(story, call("confirmed", body));
    expect(fields.map((f) => [f.label, f.theirs, f.differs])).toEqual([
      ["Outcome", "confirmed", false],
      ["Amount", "R$ 25,00", false],
      ["End-to-end id", e2e, false],
      ["Pix key", "100.000.001-08", false],
      ["Order id", transferId, false],
    ]);
  });

  it("reads Efí's dialect, and marks the amount and the end-to-end id that differ", () => {
    const body = {
      idEnvio: transferId.replaceAll("-", ""),
      valor: "25.10",
      status: "REALIZADO",
      endToEndId: otherE2e,
      favorecido: { chave: "100.000.001-08" },
    };
    const fields = answerFields(story, call("confirmed", body));
    expect(fields.filter((f) => f.differs).map((f) => f.label)).toEqual(["Amount", "End-to-end id"]);
    expect(fields.find((f) => f.label === "Amount")?.theirs).toBe("R$ 25,10");
    expect(fields.find((f) => f.label === "Order id")?.theirs).toBe(transferId);
  });

  it("marks the outcome when the provider's word and our state tell different fates", () => {
    expect(answerFields(story, call("rejected:insufficient_balance", { code: "insufficient_balance" }))[0]?.differs).toBe(true);
    const released = { ...story, state: "compensated", failure_reason: "provider_rejected" } as TransferStory;
    const refused = answerFields(released, call("rejected:insufficient_balance", { code: "insufficient_balance" }));
    expect(refused[0]).toMatchObject({ ours: "compensated (provider_rejected)", differs: false });
    expect(refused.slice(1).every((f) => f.theirs === null && !f.differs)).toBe(true);
    expect([fateOf("accepted"), fateOf("not_found"), fateOf("rejected:x"), fateOf("processing")]).toEqual([
      "processing",
      "rejected",
      "rejected",
      "processing",
    ]);
  });
});

describe("the comparison table", () => {
  const render = (fields: ReturnType<typeof compared>[]) =>
    String(Comparison({ caption: "Ours against theirs", fields, raw: { ours: { a: 1 }, provider: { a: 2 } }, rawLabel: "Raw JSON" }));

  it("marks a differing row with a class and words, counts them in the caption, and folds the raw JSON", () => {
    const html = render([compared("Amount", "R$ 1,00", "R$ 2,00"), compared("Pix key", "k", "k"), compared("End-to-end id", "x", null)]);
    expect(html).toContain("<caption>Ours against theirs: 1 field differs</caption>");
    expect(html).toContain('<tr class="differs"><th scope="row">Amount<strong class="marker"> ≠ differs</strong></th>');
    expect(html).toContain('<tr><th scope="row">Pix key</th>');
    expect(html).toContain('<span class="hint">not stated</span>');
    expect(html).toMatch(/<details><summary>Raw JSON<\/summary><pre>\{\n {2}&quot;ours&quot;/);
    expect(html.match(/≠ differs/g)).toHaveLength(1);
  });

  it("says when they agree", () => {
    expect(render([compared("Amount", "R$ 1,00", "R$ 1,00")])).toContain("<caption>Ours against theirs: they agree</caption>");
  });
});
