// Efí's `devolucoes[]` on a sent Pix (CONTRACT §4b) as the core's returns. Only a devolução
// whose status is DEVOLVIDO came back; one still EM_PROCESSAMENTO (or NAO_REALIZADO) did not.
// An item we cannot read (no id, an amount not in Efí's format, no time) makes the whole answer
// unusable, like any malformed answer: the next check asks again.

import type { z } from "zod";
import type { ProviderReturn } from "../../saga/returns.ts";
import { returnIdSchema } from "../classify.ts";
import { returnReasonOf } from "../return-reason.ts";
import { centsFromValor } from "./money.ts";
import type { returnSchema } from "./shapes.ts";

type EfiReturn = z.infer<typeof returnSchema>;

/** Efí's `horario` of a devolução: `{ solicitacao, liquidacao }`, or a bare time in older answers. */
function returnedAtMs(horario: unknown): number | null {
  const text =
    typeof horario === "string"
      ? horario
      : typeof horario === "object" && horario !== null
        ? ((horario as Record<string, unknown>).liquidacao ?? (horario as Record<string, unknown>).solicitacao)
        : null;
  if (typeof text !== "string") return null;
  const atMs = Date.parse(text);
  return Number.isNaN(atMs) ? null : atMs;
}

/** The returns that came back, or null when one of them cannot be read. */
export function efiReturns(devolucoes: readonly EfiReturn[]): ProviderReturn[] | null {
  const returns: ProviderReturn[] = [];
  for (const d of devolucoes) {
    if (d.status !== "DEVOLVIDO") continue;
    const id = returnIdSchema.safeParse(d.rtrId ?? d.id);
    const amountCents = centsFromValor(d.valor);
    const atMs = returnedAtMs(d.horario);
    if (!id.success || amountCents === null || amountCents <= 0 || atMs === null) return null;
    returns.push({ id: id.data, amountCents, reason: returnReasonOf(d.natureza ?? d.motivo ?? null), atMs });
  }
  return returns;
}
