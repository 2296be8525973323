// What a string from outside may contain (CONTRACT §2: NUL and other control characters are
// bad input, 400). PostgreSQL refuses NUL in text outright, so one that got past the edge used
// to surface as a 5xx deep inside a transaction; other controls and unpaired surrogates are
// never part of a key, an id or a description a person typed. The API's bodies, queries and
// paths (src/http/text.ts) and the console's forms check with this one function.
//
//   controlProblem("aluguel")                      // null: fine
//   controlProblem("a\u0000b")                     // "must not contain control characters (U+0000)"
//   controlProblem("line\nbreak", { lineBreaks: true })  // null: a free-text note may span lines

/** Tab, line feed, carriage return: the controls a textarea sends (CRLF). */
const lineBreakCodes = new Set([0x09, 0x0a, 0x0d]);

/** C0 controls, DEL and C1 controls (Unicode's Cc). */
function isControl(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
}

function firstControlCode(value: string, lineBreaks: boolean): number | null {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (isControl(code) && !(lineBreaks && lineBreakCodes.has(code))) return code;
  }
  return null;
}

/** A surrogate half without its other half: not Unicode text, and not storable as UTF-8. */
const unpairedSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export type TextRules = { lineBreaks?: boolean };

function codePoint(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** Why `value` is not acceptable text, or null when it is. */
export function controlProblem(value: string, rules: TextRules = {}): string | null {
  const control = firstControlCode(value, rules.lineBreaks === true);
  if (control !== null) return `must not contain control characters (${codePoint(control)})`;
  if (unpairedSurrogate.test(value)) return "must be valid Unicode text (an unpaired surrogate)";
  return null;
}
