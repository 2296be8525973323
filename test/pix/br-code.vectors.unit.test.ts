// BR Code vectors: the Central Bank manual's examples and PSPs' published codes parse to what
// they say; broken, truncated or out-of-bounds codes are refused with a problem naming the field.
import { describe, expect, it } from "vitest";
import { type BrCodeProblem, type BrCodeResult, parseBrCode } from "../../src/pix/br-code.ts";
import {
  crcValidButMalformed,
  evpKey,
  manualComposite,
  manualDynamic,
  manualStatic,
  manualStaticFields,
  pixAccount,
  pspDynamicWithAmount,
  pspDynamicWithPostalCode,
  signedCode,
  staticFields,
  tlv,
} from "./fixtures.ts";

function problemsOf(result: BrCodeResult): readonly BrCodeProblem[] {
  expect(result.ok).toBe(false);
  return result.ok ? [] : result.problems;
}

function refusedWith(text: string, code: BrCodeProblem["code"], at: string): void {
  const problems = problemsOf(parseBrCode(text));
  expect(problems).toContainEqual(expect.objectContaining({ code, at }));
  for (const problem of problems) expect(problem.message.length).toBeGreaterThan(0);
}

describe("parseBrCode: published codes", () => {
  it("reads the manual's static example: a random key, no amount, no txid", () => {
    expect(parseBrCode(manualStatic)).toEqual({ ok: true, code: { ...staticFields, text: manualStatic } });
  });

  it("reads the manual's dynamic example: a payload URL, single use", () => {
    const result = parseBrCode(manualDynamic);
    expect(result).toMatchObject({
      ok: true,
      code: { kind: "dynamic", url: "pix.example.com/8b3da2f39a4140d1a91abd93113bd441", initiationMethod: "single_use", amountCents: null },
    });
    expect(result.ok && "pixKey" in result.code).toBe(false);
  });

  it("reads the manual's composite example: 100.50 is 10050 centavos and template 80 is kept verbatim", () => {
    expect(parseBrCode(manualComposite)).toMatchObject({
      ok: true,
      code: {
        kind: "static",
        amountCents: 10050,
        extraFields: [{ id: "80", value: "0014br.gov.bcb.pix2552pix.example.com/rec/2353c790eefb11eaadc10242ac120002" }],
      },
    });
  });

  it("reads PSPs' dynamic codes with an amount and a postal code", () => {
    expect(parseBrCode(pspDynamicWithAmount)).toMatchObject({
      ok: true,
      code: {
        kind: "dynamic",
        url: "qrpix-h.bradesco.com.br/9d36b84f-c70b-478f-b95c-12729b90ca25",
        amountCents: 131010,
        merchantCity: "JOINVILLE",
      },
    });
    expect(parseBrCode(pspDynamicWithPostalCode)).toMatchObject({
      ok: true,
      code: { kind: "dynamic", merchantName: "VIA AIR AGENCIA REPRESE", merchantCity: "Paranavai", postalCode: "87707120" },
    });
  });

  it("ignores whitespace around a pasted code", () => {
    expect(parseBrCode(`  ${manualStatic}\r\n`)).toMatchObject({ ok: true, code: { text: manualStatic } });
  });

  it("accepts the GUI in any case", () => {
    const upper = signedCode(manualStaticFields({ "26": `${tlv("00", "BR.GOV.BCB.PIX")}${tlv("01", evpKey)}` }));
    expect(parseBrCode(upper)).toMatchObject({ ok: true, code: { pixKey: evpKey } });
  });

  it("refuses a code whose CRC is right but whose TLV is broken", () => {
    refusedWith(crcValidButMalformed, "malformed", "");
  });
});

describe("parseBrCode: static keys", () => {
  it.each([
    ["cpf", "52998224725", "52998224725"],
    ["cnpj", "11222333000181", "11222333000181"],
    ["cnpj", "12abc34501de35", "12ABC34501DE35"],
    ["email", "Fulano@Example.com", "fulano@example.com"],
    ["phone", "+5511987654321", "+5511987654321"],
    ["evp", "123E4567-E12B-12D1-A456-426655440000", evpKey],
    ["evp", "123e4567e12b12d1a456426655440000", evpKey],
  ] as const)("infers %s from %j and normalises it to %j", (pixKeyType, written, pixKey) => {
    expect(parseBrCode(signedCode(manualStaticFields({ "26": pixAccount(written) })))).toMatchObject({
      ok: true,
      code: { pixKey, pixKeyType },
    });
  });

  it.each([
    ["529.982.247-25", "a formatted CPF"],
    ["52998224724", "a CPF with a wrong check digit"],
    ["11222333000182", "a CNPJ with a wrong check digit"],
    ["a@b", "an email with no domain suffix"],
    ["+14155552671", "a phone outside Brazil"],
    ["fulano", "no key shape at all"],
  ])("refuses %j (%s)", (written) => {
    refusedWith(signedCode(manualStaticFields({ "26": pixAccount(written) })), "invalid_field", "26.01");
  });
});

describe("parseBrCode: damaged codes", () => {
  it("refuses a wrong CRC", () => {
    refusedWith(`${manualStatic.slice(0, -4)}1D3E`, "crc_mismatch", "63");
  });

  it("refuses a CRC in lowercase hex, which would let a one-character change pass", () => {
    refusedWith(
      signedCode(manualStaticFields()).replace(/[A-F]{1,4}$/, (hex) => hex.toLowerCase()),
      "invalid_field",
      "63",
    );
  });

  it("refuses a code with no CRC, or with the CRC anywhere but last", () => {
    refusedWith(manualStatic.slice(0, -8), "missing_field", "63");
    const crcFirst = `${manualStatic.slice(0, 6)}63041D3D${manualStatic.slice(6, -8)}`;
    refusedWith(crcFirst, "missing_field", "63");
  });

  it("refuses every truncation of the manual's examples", () => {
    for (const code of [manualStatic, manualDynamic, manualComposite]) {
      for (let length = 0; length < code.length; length++) expect(parseBrCode(code.slice(0, length)).ok, code.slice(0, length)).toBe(false);
    }
  });

  it("names the field that is cut short", () => {
    refusedWith(manualStatic.slice(0, 100), "malformed", "59");
    refusedWith(signedCode(manualStaticFields({ "62": "0510***" })), "malformed", "62.05");
    refusedWith(signedCode(manualStaticFields({ "26": "0014br.gov.bcb.pix0136123e4567" })), "malformed", "26.01");
  });

  it("refuses a field of length 00 and an id that is not two digits", () => {
    refusedWith(signedCode(manualStaticFields({ "62": "0500" })), "malformed", "62.05");
    refusedWith(signedCode([...manualStaticFields(), ["A1", "x"]]), "malformed", "");
  });

  it("refuses characters outside printable ASCII, and an empty code", () => {
    refusedWith(signedCode(manualStaticFields({ "60": "BRASÍLIA" })), "invalid_character", "");
    refusedWith(signedCode(manualStaticFields({ "59": "Fulano\tde Tal" })), "invalid_character", "");
    refusedWith(" \n", "empty", "");
  });
});

describe("parseBrCode: bounds", () => {
  it("takes a name of 25 and a city of 15 characters, and no more", () => {
    expect(parseBrCode(signedCode(manualStaticFields({ "59": "N".repeat(25), "60": "C".repeat(15) }))).ok).toBe(true);
    refusedWith(signedCode(manualStaticFields({ "59": "N".repeat(26) })), "invalid_field", "59");
    refusedWith(signedCode(manualStaticFields({ "60": "C".repeat(16) })), "invalid_field", "60");
  });

  it("refuses a blank name or city", () => {
    refusedWith(signedCode(manualStaticFields({ "59": "   " })), "invalid_field", "59");
    refusedWith(signedCode(manualStaticFields({ "60": " " })), "invalid_field", "60");
  });

  // 77 is also all field 26 can hold beside its GUI (4 + 14 + 4 + 77 = 99): a longer URL cannot be
  // written at all (the builder's tests show it refused).
  it("takes a payload URL of 77 characters", () => {
    const url = `pix.example.com/${"a".repeat(61)}`;
    const dynamic = signedCode(manualStaticFields({ "26": `${tlv("00", "br.gov.bcb.pix")}${tlv("25", url)}` }));
    expect(parseBrCode(dynamic)).toMatchObject({ ok: true, code: { kind: "dynamic", url } });
  });

  it("takes a static txid of 25 letters or digits, and no more", () => {
    expect(parseBrCode(signedCode(manualStaticFields({ "62": tlv("05", `${"A1".repeat(12)}Z`) })))).toMatchObject({
      ok: true,
      code: { txid: `${"A1".repeat(12)}Z` },
    });
    refusedWith(signedCode(manualStaticFields({ "62": tlv("05", "A".repeat(26)) })), "invalid_field", "62.05");
    refusedWith(signedCode(manualStaticFields({ "62": tlv("05", "PEDIDO-12") })), "invalid_field", "62.05");
  });

  it("refuses a code over 512 characters before reading it", () => {
    const extras = Array.from({ length: 6 }, (_, i): [string, string] => [String(80 + i), "x".repeat(80)]);
    const long = signedCode([...manualStaticFields(), ...extras]);
    expect(long.length).toBeGreaterThan(512);
    refusedWith(long, "too_long", "");
  });
});

describe("parseBrCode: amounts", () => {
  it.each([
    ["12.34", 1234],
    ["0.01", 1],
    ["10", 1000],
    ["0.5", 50],
    ["007.00", 700],
    ["9999999999.99", 999_999_999_999],
  ])("reads %j as %d centavos", (written, amountCents) => {
    expect(parseBrCode(signedCode(manualStaticFields({ "54": written })))).toMatchObject({ ok: true, code: { amountCents } });
  });

  it.each(["0.00", "0", "12,34", "1.234", "-1.00", "1e3", "12345678901.00", ".50", "10."])("refuses %j", (written) => {
    refusedWith(signedCode(manualStaticFields({ "54": written })), "invalid_field", "54");
  });
});

describe("parseBrCode: the fields a Pix code must have", () => {
  it.each([
    ["00", "02", "invalid_field", "00"],
    ["53", "840", "invalid_field", "53"],
    ["58", "US", "invalid_field", "58"],
    ["52", "00A0", "invalid_field", "52"],
    ["01", "13", "invalid_field", "01"],
    ["26", `${tlv("00", "com.example.pay")}${tlv("01", evpKey)}`, "invalid_field", "26.00"],
    ["26", `${tlv("00", "br.gov.bcb.pix")}${tlv("01", evpKey)}${tlv("25", "pix.example.com/x")}`, "invalid_field", "26"],
    ["26", `${tlv("00", "br.gov.bcb.pix")}${tlv("02", "only info")}`, "missing_field", "26.01"],
    ["26", `${tlv("00", "br.gov.bcb.pix")}${tlv("25", "https://pix.example.com/x")}`, "invalid_field", "26.25"],
    ["62", tlv("01", "BILL"), "missing_field", "62.05"],
    ["59", null, "missing_field", "59"],
    ["62", null, "missing_field", "62"],
  ] as const)("field %s as %j: %s at %s", (id, value, code, at) => {
    refusedWith(signedCode(manualStaticFields({ [id]: value })), code, at);
  });

  it("refuses a field that appears twice, at the top or in a template", () => {
    refusedWith(signedCode([...manualStaticFields({ "54": "1.00" }), ["54", "1000.00"]]), "duplicate_field", "54");
    refusedWith(signedCode(manualStaticFields({ "26": `${pixAccount()}${tlv("01", "52998224725")}` })), "duplicate_field", "26.01");
  });

  it("refuses a tip or a convenience fee", () => {
    for (const id of ["55", "56", "57"]) refusedWith(signedCode(manualStaticFields({ [id]: "01" })), "unsupported_field", id);
  });

  it("reports every bad field at once", () => {
    const problems = problemsOf(parseBrCode(signedCode(manualStaticFields({ "53": "840", "58": "US", "59": null }))));
    expect(problems.map((problem) => problem.at)).toEqual(["53", "58", "59"]);
  });

  it("keeps fields it does not read, in the order they came", () => {
    const code = signedCode(
      manualStaticFields({
        "26": `${pixAccount()}${tlv("02", "Mesa 4")}${tlv("03", "fss")}`,
        "62": `${tlv("05", "PEDIDO12")}${tlv("50", "0017br.gov.bcb.brcode01051.0.0")}`,
        "27": "0012com.example0104abcd",
        "64": "0002PT",
      }),
    );
    expect(parseBrCode(code)).toMatchObject({
      ok: true,
      code: {
        info: "Mesa 4",
        txid: "PEDIDO12",
        extraAccountFields: [{ id: "03", value: "fss" }],
        extraAdditionalFields: [{ id: "50", value: "0017br.gov.bcb.brcode01051.0.0" }],
        extraFields: [
          { id: "27", value: "0012com.example0104abcd" },
          { id: "64", value: "0002PT" },
        ],
      },
    });
  });
});
