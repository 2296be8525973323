// CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor), the checksum in
// field 63 of every BR Code. Check value: "123456789" -> 29B1.

/** Over the character codes of `text`: callers pass ASCII only (the parser refuses anything else first). */
export function crc16CcittFalse(text: string): number {
  let crc = 0xffff;
  for (let i = 0; i < text.length; i++) {
    crc ^= text.charCodeAt(i) << 8;
    for (let bit = 0; bit < 8; bit++) {
      crc = (crc & 0x8000) !== 0 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc;
}

/** Four uppercase hex digits, as field 63 writes it. */
export function crcHex(text: string): string {
  return crc16CcittFalse(text).toString(16).toUpperCase().padStart(4, "0");
}
