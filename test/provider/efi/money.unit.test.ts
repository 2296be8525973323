// valor <-> centavos exactly, with integer arithmetic only, and the idEnvio of a transfer id.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { centsFromValor, idEnvioOf, valorFromCents } from "../../../src/provider/efi/money.ts";

describe("Efí amounts", () => {
  it.each([
    [1, "0.01"],
    [10, "0.10"],
    [29, "0.29"],
    [100, "1.00"],
    [1234, "12.34"],
    [10_000_000, "100000.00"],
  ])("formats %i centavos as %s", (cents, valor) => {
    expect(valorFromCents(cents)).toBe(valor);
    expect(centsFromValor(valor)).toBe(cents);
  });

  it("round-trips every amount exactly", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 100_000_000_000 }), (cents) => centsFromValor(valorFromCents(cents)) === cents));
  });

  it.each(["12.3", "12", "12.345", "-1.00", "01.00", "1,00", " 1.00", "1e2", ""])("reads %j as no amount", (valor) => {
    expect(centsFromValor(valor)).toBeNull();
  });

  it("refuses to format what is not centavos", () => {
    expect(() => valorFromCents(1.5)).toThrow();
    expect(() => valorFromCents(-1)).toThrow();
  });

  it("names a transfer's send by its id without dashes: 32 hex characters", () => {
    expect(idEnvioOf("2F0E4C1A-6A53-4A8E-9D0B-0A3B8F1D2C11")).toBe("2f0e4c1a6a534a8e9d0b0a3b8f1d2c11");
    expect(idEnvioOf(crypto.randomUUID())).toMatch(/^[a-f0-9]{32}$/);
  });
});
