import { describe, expect, it } from "vitest";
import { type PixKeyType, pixKeyTypes } from "../../src/lib/ids.ts";
import { checkDigit, emailKeyLengthMax, isPixKeyType, normalisePixKey } from "../../src/pix/key.ts";
import { knownValidKeys as valid } from "../support/valid-keys.ts";

type Invalid = [type: PixKeyType, input: string, why: string];

const invalid: Invalid[] = [
  ["cpf", "111.111.111-11", "all the same digit, though its check digits add up"],
  ["cpf", "000.000.000-00", "all zeros"],
  ["cpf", "529.982.247-24", "wrong second check digit"],
  ["cpf", "529.982.247-15", "wrong first check digit"],
  ["cpf", "1234567890", "10 digits"],
  ["cpf", "123456789091", "12 digits"],
  ["cpf", "123 456 789 09", "spaces inside"],
  ["cpf", "123.456.789/09", "a slash is CNPJ punctuation"],
  ["cpf", "12345678a09", "a letter"],
  ["cpf", "", "empty"],
  ["cpf", "１２３４５６７８９０９", "full-width digits"],
  ["cnpj", "00.000.000/0000-00", "all zeros"],
  ["cnpj", "AAAAAAAAAAAAAA", "all the same character"],
  ["cnpj", "11.222.333/0001-82", "wrong check digit"],
  ["cnpj", "12.ABC.345/01DE-36", "wrong check digit (alphanumeric)"],
  ["cnpj", "12ABC34501DE3A", "a letter among the check digits"],
  ["cnpj", "12ABC34501DE3", "13 characters"],
  ["cnpj", "12ÀBC34501DE35", "a non-ASCII letter"],
  ["cnpj", "12 ABC 345 01DE 35", "spaces"],
  ["cnpj", "12*ABC345/01DE-35", "other punctuation"],
  ["email", "plainaddress", "no @"],
  ["email", "a@b", "no domain suffix"],
  ["email", "a..b@example.com", "consecutive dots"],
  ["email", ".a@example.com", "leading dot"],
  ["email", "a.@example.com", "trailing dot in the local part"],
  ["email", "a@-example.com", "a label starting with a hyphen"],
  ["email", "a@example..com", "an empty label"],
  ["email", "a b@example.com", "a space"],
  ["email", "a@b@example.com", "two @"],
  ["email", "josé@example.com", "non-ASCII"],
  ["email", `${"a".repeat(65)}@b.co`, "a local part over 64"],
  ["email", `${"a".repeat(64)}@${"b".repeat(9)}.com`, "78 characters"],
  ["phone", "5511987654321", "no +"],
  ["phone", "+55 11 98765-4321", "punctuation"],
  ["phone", "+5511887654321", "9 digits not starting with 9"],
  ["phone", "+55119876543", "too short"],
  ["phone", "+55119876543210", "too long"],
  ["phone", "+5501987654321", "area code 01"],
  ["phone", "+5510987654321", "area code 10"],
  ["phone", "+14155552671", "not Brazilian"],
  ["phone", "(11) 98765-4321", "not E.164"],
  ["evp", "123e4567e89b12d3a456426614174000", "no hyphens"],
  ["evp", "123e4567-e89b-12d3-a456-42661417400g", "a non-hex character"],
  ["evp", "{123e4567-e89b-12d3-a456-426614174000}", "braces"],
  ["evp", "123e4567-e89b-12d3-a456-4266141740001", "too long"],
];

describe("normalisePixKey", () => {
  it.each(valid)("accepts %s %j, stored as %j", (type, input, stored) => {
    expect(normalisePixKey(type, input)).toEqual({ ok: true, key: stored });
  });

  it.each(invalid)("rejects %s %j (%s)", (type, input) => {
    const result = normalisePixKey(type, input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message.length).toBeGreaterThan(0);
  });

  it("accepts an email of exactly the length limit", () => {
    const email = `${"a".repeat(64)}@${"b".repeat(8)}.com`;
    expect(email).toHaveLength(emailKeyLengthMax);
    expect(normalisePixKey("email", email)).toEqual({ ok: true, key: email });
  });

  it("rejects overlong input of every type before looking at it", () => {
    for (const type of pixKeyTypes) {
      expect(normalisePixKey(type, `${"1".repeat(101)}`)).toMatchObject({ ok: false, message: expect.stringContaining("100") });
    }
  });

  it("keys of one type are not accepted as another", () => {
    expect(normalisePixKey("cpf", "11222333000181").ok).toBe(false);
    expect(normalisePixKey("cnpj", "10000000108").ok).toBe(false);
    expect(normalisePixKey("email", "+5511987654321").ok).toBe(false);
    expect(normalisePixKey("phone", "10000000108").ok).toBe(false);
    expect(normalisePixKey("evp", "a@b.co").ok).toBe(false);
  });
});

describe("check digits", () => {
  it("computes the published examples", () => {
    expect(checkDigit("100000001", 11)).toBe(0);
    expect(checkDigit("1000000010", 11)).toBe(8);
    expect(checkDigit("12ABC34501DE", 9)).toBe(3);
    expect(checkDigit("12ABC34501DE3", 9)).toBe(5);
  });

  // Modulo 11 with weights below 11 catches every single-digit substitution: check it does.
  it.each([
    ["cpf", "52998224725"],
    ["cnpj", "11222333000181"],
  ] as const)("rejects every single-digit change to a valid %s", (type, document) => {
    let changes = 0;
    for (let position = 0; position < document.length; position++) {
      for (let digit = 0; digit <= 9; digit++) {
        if (document[position] === String(digit)) continue;
        const changed = `${document.slice(0, position)}${digit}${document.slice(position + 1)}`;
        expect(normalisePixKey(type, changed).ok, changed).toBe(false);
        changes += 1;
      }
    }
    expect(changes).toBe(document.length * 9);
  });

  it("rejects swapping two different adjacent digits of a valid CPF", () => {
    const document = "52998224725";
    for (let i = 0; i + 1 < document.length; i++) {
      if (document[i] === document[i + 1]) continue;
      const swapped = `${document.slice(0, i)}${document[i + 1]}${document[i]}${document.slice(i + 2)}`;
      expect(normalisePixKey("cpf", swapped).ok, swapped).toBe(false);
    }
  });
});

describe("isPixKeyType", () => {
  it("knows exactly the five contract types", () => {
    expect(pixKeyTypes).toEqual(["cpf", "cnpj", "email", "phone", "evp"]);
    for (const type of pixKeyTypes) expect(isPixKeyType(type)).toBe(true);
    for (const other of ["CPF", "random", "", "telefone"]) expect(isPixKeyType(other)).toBe(false);
  });
});
