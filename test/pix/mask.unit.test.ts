// Masking a key's owner for the payer (src/pix/mask.ts): recognisable, never harvestable.
import { describe, expect, it } from "vitest";
import { maskDocument, maskName } from "../../src/pix/mask.ts";

describe("maskName", () => {
  it.each([
    ["Maria Silva", "Maria S***"],
    ["Maria da Silva Santos", "Maria S***"],
    ["  João   dos   Santos ", "João S***"],
    ["ana de souza", "ana S***"],
    ["Maria Élia", "Maria É***"],
    ["Padaria Pão Quente LTDA", "Padaria P***"],
    ["Madonna", "M***"],
    ["Maria da", "Maria D***"],
    ["", "***"],
    ["   ", "***"],
  ])("%j is shown as %j", (name, masked) => {
    expect(maskName(name)).toBe(masked);
  });
});

describe("maskDocument", () => {
  it.each([
    ["12345678909", "***.456.789-**"],
    ["123.456.789-09", "***.456.789-**"],
    ["12345678000195", "12.345.678/****-**"],
    ["12.ABC.345/01DE-35", "12.ABC.345/****-**"],
    ["1234", "***"],
    ["not a document", "***"],
  ])("%j is shown as %j", (document, masked) => {
    expect(maskDocument(document)).toBe(masked);
  });
});
