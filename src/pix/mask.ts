// What a payer may see of a key's owner before sending (CONTRACT §2): enough to recognise them,
// too little to harvest. Pure.
//
//   maskName("Maria da Silva Santos")  // "Maria S***"
//   maskDocument("12345678909")        // "***.456.789-**"   (a CPF: the middle six, as banks show it)
//   maskDocument("12345678000195")     // "12.345.678/****-**" (a CNPJ: the company's root is public)

/** Portuguese particles that are not a surname: "Maria da Silva" shows "Maria S***". */
const nameParticles: ReadonlySet<string> = new Set(["da", "das", "de", "do", "dos", "e", "di", "du"]);
const hidden = "***";

export function maskName(fullName: string): string {
  const words = fullName
    .trim()
    .split(/\s+/u)
    .filter((word) => word !== "");
  const [first, ...rest] = words;
  if (first === undefined) return hidden;
  if (rest.length === 0) return `${initialOf(first)}${hidden}`;
  const next = rest.find((word) => !nameParticles.has(word.toLowerCase())) ?? rest[0] ?? "";
  return `${first} ${initialOf(next).toUpperCase()}${hidden}`;
}

/** The first character as the reader sees it (a letter with its accent, not half a surrogate pair). */
function initialOf(word: string): string {
  return [...word.normalize("NFC")][0] ?? "";
}

export function maskDocument(document: string): string {
  const compact = document.replace(/[./-]/g, "").toUpperCase();
  if (/^\d{11}$/.test(compact)) return `***.${compact.slice(3, 6)}.${compact.slice(6, 9)}-**`;
  if (/^[0-9A-Z]{12}\d{2}$/.test(compact)) return `${compact.slice(0, 2)}.${compact.slice(2, 5)}.${compact.slice(5, 8)}/****-**`;
  // Not a document we know how to show in part: show none of it.
  return hidden;
}
