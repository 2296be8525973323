// CRC-16/CCITT-FALSE against its published check value and the manual's codes (whose last four
// characters are the CRC of everything before them).
import { describe, expect, it } from "vitest";
import { crc16CcittFalse, crcHex } from "../../src/pix/crc16.ts";
import { manualComposite, manualDynamic, manualStatic } from "./fixtures.ts";

describe("crc16CcittFalse", () => {
  it("gives the catalogued check value for 123456789", () => {
    expect(crc16CcittFalse("123456789")).toBe(0x29b1);
  });

  it("gives the init value for empty text and pads to four uppercase digits", () => {
    expect(crcHex("")).toBe("FFFF");
    expect(
      crcHex(
        "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***6304",
      ),
    ).toBe("1D3D");
  });

  it.each([manualStatic, manualDynamic, manualComposite])("matches the CRC the manual printed for %s", (code) => {
    expect(crcHex(code.slice(0, -4))).toBe(code.slice(-4));
  });
});
