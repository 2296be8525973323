// Pix end-to-end ids as the BCB shapes them: `E` + payer ISPB (8 digits) + yyyyMMddHHmm (UTC) +
// 11 random alphanumerics = 32 characters, so the adapter's validation sees realistic ids.

/** Not a real institution: ISPBs are 8 digits and no bank has this one. */
const sandboxIspb = "99999999";
const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const randomCharCount = 11;

export function newEndToEndId(atMs: number): string {
  const at = new Date(atMs);
  const two = (value: number): string => String(value).padStart(2, "0");
  const stamp = `${at.getUTCFullYear()}${two(at.getUTCMonth() + 1)}${two(at.getUTCDate())}${two(at.getUTCHours())}${two(at.getUTCMinutes())}`;
  const randomBytes = crypto.getRandomValues(new Uint8Array(randomCharCount));
  // 256 % 62 leaves a slight bias; irrelevant for ids that only need to be unique-ish and well formed.
  const suffix = Array.from(randomBytes, (byte) => alphabet[byte % alphabet.length]).join("");
  return `E${sandboxIspb}${stamp}${suffix}`;
}
