// Efí's `valor` ("12.34", a decimal string in reais) to and from our integer centavos, and the
// transfer's `idEnvio`. Integer arithmetic only: a float would turn 0.29 into 28 centavos.

/** Efí's amounts: reais with exactly two decimals, at most 10 digits of reais (CONTRACT's caps are far below). */
export const valorPattern = /^(0|[1-9][0-9]{0,9})\.([0-9]{2})$/;

export function valorFromCents(amountCents: number): string {
  if (!Number.isSafeInteger(amountCents) || amountCents < 0) throw new Error(`valorFromCents: not a centavo amount: ${amountCents}`);
  const reais = Math.floor(amountCents / 100);
  const centavos = amountCents % 100;
  return `${reais}.${String(centavos).padStart(2, "0")}`;
}

/** Null for anything that is not exactly Efí's format: an amount we cannot read proves nothing. */
export function centsFromValor(valor: string): number | null {
  const match = valorPattern.exec(valor);
  if (match === null) return null;
  return Number(match[1]) * 100 + Number(match[2]);
}

/** `^[a-zA-Z0-9]{1,35}$` at Efí: the transfer's UUID without its dashes (32 hex characters). */
export function idEnvioOf(transferId: string): string {
  return transferId.replaceAll("-", "").toLowerCase();
}

/** Back from an `idEnvio` on Efí's statement to the transfer id; anything else stays as Efí wrote it. */
export function transferIdOfIdEnvio(idEnvio: string): string {
  const id = idEnvio.toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(id)) return idEnvio;
  return `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20)}`;
}
