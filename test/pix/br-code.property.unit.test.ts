// Properties of the BR Code parser and builder over random valid fields: what is built parses
// back to the same fields, and no single-character change to a code (a typo, a bad copy)
// survives the CRC or the structure.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { amountCentsFromText, amountTextFromCents } from "../../src/pix/amount.ts";
import { type BrCodeField, type BrCodeFields, buildBrCode, parseBrCode } from "../../src/pix/br-code.ts";
import { amountCentsMax } from "../../src/pix/br-code-model.ts";
import { checkDigit } from "../../src/pix/key.ts";

const runs = { numRuns: 1_000 };

const digits = (length: number) => fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: length, maxLength: length });
const alnumUpper = fc.constantFrom(..."0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ");
const lowerAlnum = fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789");
const printable = fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code));
const text = (lengthMax: number) =>
  fc.string({ unit: printable, minLength: 1, maxLength: lengthMax }).filter((value) => value.trim().length > 0);
const notAllSame = (value: string) => [...value].some((char) => char !== value[0]);

const cpf = digits(9)
  .filter(notAllSame)
  .map((base) => {
    const withFirst = `${base}${checkDigit(base, 11)}`;
    return `${withFirst}${checkDigit(withFirst, 11)}`;
  });
const cnpj = fc
  .string({ unit: alnumUpper, minLength: 12, maxLength: 12 })
  .filter(notAllSame)
  .map((base) => {
    const withFirst = `${base}${checkDigit(base, 9)}`;
    return `${withFirst}${checkDigit(withFirst, 9)}`;
  });
const email = fc
  .tuple(fc.string({ unit: lowerAlnum, minLength: 1, maxLength: 16 }), fc.string({ unit: lowerAlnum, minLength: 1, maxLength: 12 }))
  .map(([local, domain]) => `${local}@${domain}.com.br`);
const phone = fc
  .tuple(
    fc.integer({ min: 1, max: 9 }),
    fc.integer({ min: 1, max: 9 }),
    fc.oneof(
      digits(8),
      digits(8).map((rest) => `9${rest}`),
    ),
  )
  .map(([a, b, rest]) => `+55${a}${b}${rest}`);

const staticAccount = fc.oneof(
  cpf.map((pixKey) => ({ kind: "static" as const, pixKey, pixKeyType: "cpf" as const })),
  cnpj.map((pixKey) => ({ kind: "static" as const, pixKey, pixKeyType: "cnpj" as const })),
  email.map((pixKey) => ({ kind: "static" as const, pixKey, pixKeyType: "email" as const })),
  phone.map((pixKey) => ({ kind: "static" as const, pixKey, pixKeyType: "phone" as const })),
  fc.uuid().map((pixKey) => ({ kind: "static" as const, pixKey, pixKeyType: "evp" as const })),
);
// Short enough that field 26 (GUI 18 + URL + info + extras) stays within 99 characters.
const dynamicAccount = fc
  .tuple(fc.string({ unit: lowerAlnum, minLength: 1, maxLength: 12 }), fc.string({ unit: lowerAlnum, minLength: 0, maxLength: 20 }))
  .map(([host, path]) => ({ kind: "dynamic" as const, url: `${host}.example/${path}` }));

/** Unique ids from `ids`, values 1 to `valueLengthMax` printable characters, in id order as the builder writes them. */
function extras(ids: readonly string[], countMax: number, valueLengthMax: number): fc.Arbitrary<BrCodeField[]> {
  return fc
    .uniqueArray(fc.constantFrom(...ids), { maxLength: countMax })
    .chain((chosen) => fc.tuple(...chosen.sort().map((id) => text(valueLengthMax).map((value) => ({ id, value })))));
}
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String(from + i).padStart(2, "0"));
const topLevelExtraIds = [...range(2, 25), ...range(27, 51), ...range(64, 99)];
const accountExtraIds = ["03", "04", "10", "26", "99"];
const additionalExtraIds = ["01", "02", "07", "50", "99"];

const fieldsArb: fc.Arbitrary<BrCodeFields> = fc
  .record({
    account: fc.oneof(staticAccount, dynamicAccount),
    initiationMethod: fc.constantFrom(null, "reusable" as const, "single_use" as const),
    info: fc.option(text(10)),
    merchantCategoryCode: fc.oneof(fc.constant("0000"), digits(4)),
    amountCents: fc.option(fc.oneof(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 1, max: amountCentsMax }))),
    merchantName: text(25),
    merchantCity: text(15),
    postalCode: fc.option(digits(8)),
    txid: fc.option(fc.string({ unit: fc.constantFrom(..."ABCXYZabcxyz0123456789"), minLength: 1, maxLength: 25 })),
    extraFields: extras(topLevelExtraIds, 3, 30),
    extraAccountFields: extras(accountExtraIds, 1, 6),
    extraAdditionalFields: extras(additionalExtraIds, 2, 20),
  })
  .map(({ account, ...rest }) => ({ ...rest, ...account }));

const validCode = fieldsArb.map((fields) => {
  const built = buildBrCode(fields);
  if (!built.ok) throw new Error(`valid fields did not build: ${JSON.stringify(built.problems)}`);
  return built.code.text;
});

describe("BR Code properties", () => {
  it("parses what it builds back to the same fields", () => {
    fc.assert(
      fc.property(fieldsArb, (fields) => {
        const built = buildBrCode(fields);
        expect(built).toMatchObject({ ok: true });
        if (!built.ok) return;
        const { text: builtText, ...builtFields } = built.code;
        expect(builtFields).toEqual(fields);
        expect(parseBrCode(builtText)).toEqual(built);
      }),
      runs,
    );
  });

  it("refuses every single-character change to a valid code", () => {
    const change = fc.tuple(
      validCode,
      fc.nat(),
      fc.oneof({ arbitrary: printable, weight: 9 }, { arbitrary: fc.constantFrom("é", "\n", "\u0000", "€"), weight: 1 }),
    );
    fc.assert(
      fc.property(change, ([code, positionSeed, replacement]) => {
        const position = positionSeed % code.length;
        fc.pre(code[position] !== replacement);
        const changed = `${code.slice(0, position)}${replacement}${code.slice(position + 1)}`;
        expect(parseBrCode(changed).ok, changed).toBe(false);
      }),
      { numRuns: 5_000 },
    );
  });

  it("refuses every truncation of a valid code", () => {
    fc.assert(
      fc.property(validCode, fc.nat(), (code, lengthSeed) => {
        const truncated = code.slice(0, lengthSeed % code.length);
        expect(parseBrCode(truncated).ok).toBe(false);
      }),
      runs,
    );
  });

  it("converts amounts between centavos and reais text exactly, in both directions", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: amountCentsMax }), (amountCents) => {
        const written = amountTextFromCents(amountCents);
        expect(written).toMatch(/^\d{1,10}\.\d{2}$/);
        expect(written === null ? null : amountCentsFromText(written)).toEqual({ ok: true, amountCents });
        // The same value by BigInt, which cannot round: reais * 100 + centavos.
        const [reais, centavos] = (written ?? "").split(".");
        expect(BigInt(reais ?? "") * 100n + BigInt(centavos ?? "")).toBe(BigInt(amountCents));
      }),
      runs,
    );
  });
});
