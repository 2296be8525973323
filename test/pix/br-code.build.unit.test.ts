// buildBrCode writes what parseBrCode reads: the manual's examples byte for byte, and refuses
// fields a code cannot carry instead of writing a code that lies.
import { describe, expect, it } from "vitest";
import { type BrCodeFields, buildBrCode, parseBrCode } from "../../src/pix/br-code.ts";
import { dynamicFields, manualComposite, manualDynamic, manualStatic, staticFields } from "./fixtures.ts";

function withoutText(text: string): BrCodeFields {
  const parsed = parseBrCode(text);
  if (!parsed.ok) throw new Error(`fixture does not parse: ${JSON.stringify(parsed.problems)}`);
  const { text: _text, ...fields } = parsed.code;
  return fields;
}

describe("buildBrCode", () => {
  it.each([
    ["static", manualStatic],
    ["dynamic", manualDynamic],
    ["composite", manualComposite],
  ])("writes the manual's %s example exactly", (_name, text) => {
    expect(buildBrCode(withoutText(text))).toMatchObject({ ok: true, code: { text } });
  });

  it("writes the amount as reais with two decimals, exactly", () => {
    const built = buildBrCode({ ...staticFields, amountCents: 1005 });
    expect(built.ok && built.code.text).toContain("540510.05");
    expect(built).toMatchObject({ ok: true, code: { amountCents: 1005 } });
    expect(buildBrCode({ ...staticFields, amountCents: 7 })).toMatchObject({
      ok: true,
      code: { text: expect.stringContaining("54040.07") },
    });
  });

  it.each([0, -100, 10.5, 1_000_000_000_000, Number.NaN])("refuses an amount of %d centavos", (amountCents) => {
    expect(buildBrCode({ ...staticFields, amountCents })).toMatchObject({ ok: false, problems: [{ code: "invalid_field", at: "54" }] });
  });

  it("refuses a payload URL that leaves field 26 over 99 characters", () => {
    const url = `pix.example.com/${"a".repeat(62)}`;
    expect(buildBrCode({ ...dynamicFields, url })).toMatchObject({ ok: false, problems: [{ code: "malformed", at: "26" }] });
  });

  it("refuses info that does not fit beside the key, and an empty one", () => {
    expect(buildBrCode({ ...staticFields, info: "x".repeat(40) })).toMatchObject({
      ok: false,
      problems: [{ code: "malformed", at: "26" }],
    });
    expect(buildBrCode({ ...staticFields, info: "" })).toMatchObject({ ok: false, problems: [{ code: "malformed", at: "26.02" }] });
  });

  it("refuses the bounds the parser holds: a long name, a bad txid", () => {
    expect(buildBrCode({ ...staticFields, merchantName: "N".repeat(26) })).toMatchObject({ ok: false, problems: [{ at: "59" }] });
    expect(buildBrCode({ ...staticFields, txid: "PEDIDO-1" })).toMatchObject({ ok: false, problems: [{ at: "62.05" }] });
  });

  it("refuses a key that is not the normalised key of its stated type", () => {
    const wrongType = buildBrCode({ ...staticFields, pixKey: "52998224725", pixKeyType: "phone" });
    expect(wrongType).toMatchObject({ ok: false, problems: [{ code: "invalid_field", at: "26.01" }] });
    const notNormalised = buildBrCode({ ...staticFields, pixKey: "Fulano@Example.com", pixKeyType: "email" });
    expect(notNormalised).toMatchObject({ ok: false, problems: [{ code: "invalid_field", at: "26.01" }] });
  });

  it("writes extra fields in id order, so the code is the same whatever order they were given in", () => {
    const extraFields = [
      { id: "80", value: "0004test" },
      { id: "27", value: "0003abc" },
    ];
    const built = buildBrCode({ ...staticFields, extraFields });
    expect(built.ok && built.code.extraFields).toEqual([extraFields[1], extraFields[0]]);
    expect(built.ok && built.code.text.indexOf("2707")).toBeLessThan(built.ok ? built.code.text.indexOf("8008") : -1);
  });
});
