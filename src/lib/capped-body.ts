// The one reader of an answer to a call the Worker makes on its own (the provider, events,
// alerts, JWKS and Access keys; CONTRACT §1): at most 64 KiB is read, whatever the answer
// declares or sends, so a hostile or broken endpoint cannot make us hold its whole body.

/** No answer we ask for comes near this (a status, a statement page, a key set, an error). */
export const answerBytesMax = 64 * 1024;

export interface CappedText {
  /** What was read, decoded as UTF-8: the whole answer, or its first `bytesMax` bytes or so. */
  text: string;
  /** The answer went on past the cap; the rest was never read. */
  tooLarge: boolean;
}

export async function readCappedText(response: Response, bytesMax = answerBytesMax): Promise<CappedText> {
  if (response.body === null) return { text: "", tooLarge: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytesRead = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    bytesRead += value.byteLength;
    if (bytesRead > bytesMax) {
      await reader.cancel();
      return { text: decode(chunks), tooLarge: true };
    }
  }
  return { text: decode(chunks), tooLarge: false };
}

function decode(chunks: Uint8Array[]): string {
  const decoder = new TextDecoder();
  return chunks.map((chunk) => decoder.decode(chunk, { stream: true })).join("") + decoder.decode();
}
