// The window an operator asks provider reconciliation to run over, as the API (POST
// /ops/reconciliation/provider) and the console's form both take it: two RFC 3339 instants, in
// order, at most a statement's span apart.
import { z } from "zod";
import { statementWindowMsMax } from "../provider/statement.ts";

const instant = z.iso.datetime({ offset: true }).describe("RFC 3339, e.g. 2026-12-01T03:00:00Z");

export const providerReconciliationBody = z
  .strictObject({ from: instant, to: instant })
  .refine((w) => Date.parse(w.to) > Date.parse(w.from), { path: ["to"], message: "`to` must be after `from`." })
  .refine((w) => Date.parse(w.to) - Date.parse(w.from) <= statementWindowMsMax, {
    path: ["to"],
    message: "A window spans at most 24 hours.",
  });
