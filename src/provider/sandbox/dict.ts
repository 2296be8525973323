// The sandbox's directory (CONTRACT §4): every valid key has a made-up owner, the same one on
// every call (chosen by a hash of the key), except email keys beginning `unknown` and EVPs
// ending `0000`, which nobody owns. Pure.
import { checkDigit } from "../../pix/key.ts";
import type { KeyLookup, KeyOwner } from "../port.ts";

const firstNames = ["Maria", "João", "Ana", "Pedro", "Francisca", "Lucas", "Juliana", "Carlos"] as const;
const surnames = ["Silva", "Santos", "Oliveira", "Souza", "Pereira", "Costa", "Rodrigues", "Almeida"] as const;
const institutions = [
  { ispb: "00000000", institution: "Banco do Brasil S.A." },
  { ispb: "00360305", institution: "Caixa Econômica Federal" },
  { ispb: "18236120", institution: "Nu Pagamentos S.A." },
  { ispb: "60701190", institution: "Itaú Unibanco S.A." },
] as const;

export function isUnownedKey(query: KeyLookup): boolean {
  return (
    (query.pixKeyType === "email" && query.pixKey.startsWith("unknown")) || (query.pixKeyType === "evp" && query.pixKey.endsWith("0000"))
  );
}

export function sandboxOwnerOf(query: KeyLookup): KeyOwner {
  const hash = fnv1a(`${query.pixKeyType}:${query.pixKey}`);
  const pick = <T>(list: readonly T[], shift: number): T => list[(hash >>> shift) % list.length] as T;
  const { ispb, institution } = pick(institutions, 16);
  return {
    name: `${pick(firstNames, 0)} ${pick(surnames, 8)} ${pick(surnames, 4)}`,
    // A CPF key's owner is that CPF; anyone else gets a valid made-up one.
    document: query.pixKeyType === "cpf" ? query.pixKey : cpfFrom(hash),
    ispb,
    institution,
  };
}

function cpfFrom(hash: number): string {
  // Nine digits from the hash, never all the same (such CPFs are invalid), then the check digits.
  const base = String(100_000_000 + (hash % 800_000_000)).slice(0, 9);
  const withFirst = `${base}${checkDigit(base, 11)}`;
  return `${withFirst}${checkDigit(withFirst, 11)}`;
}

/** 32-bit FNV-1a: stable across runs and runtimes, which is all a made-up owner needs. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
