// Provider reconciliation's operations (CONTRACT §5): run a window, the latest run, and the
// paid-after-release cases with their decisions (extensions of the contract).
import { casesQuery } from "../ops/provider-reconciliation.ts";
import { jsonBody, jsonResponse, pathParameter, problemResponse, queryParameters } from "./build.ts";
import type { Parameter, ResponseObject, RoutedOperation, SecurityRequirement } from "./types.ts";

const caseId: Parameter = pathParameter("id", "The transfer the case is about.", { type: "string", format: "uuid" });

export function providerReconciliationOperations(
  security: SecurityRequirement[],
  unauthorized: Record<string, ResponseObject>,
): RoutedOperation[] {
  return [
    {
      method: "post",
      path: "/ops/reconciliation/provider",
      operation: {
        operationId: "opsProviderReconciliation",
        summary: "Hold our transfers against the provider's statement",
        description:
          "Reads the provider's whole statement for the window (every page), compares it with our transfers first sent in it, applies the returns it lists (each once, whoever else finds it) and reports every divergence with both sides. A `paid_after_release` opens a case for a person. Recorded (GET …/latest) and audited as `reconciliation_run`; any divergence raises the ops alert. A daily cron runs it for the previous São Paulo day.",
        tags: ["operators"],
        security,
        requestBody: jsonBody("ProviderReconciliationRequest"),
        responses: {
          "200": jsonResponse("The run.", "ProviderReconciliationRun"),
          "400": problemResponse("`from`/`to` not RFC 3339, `to` not after `from`, or more than 24 hours apart."),
          ...unauthorized,
        },
      },
    },
    {
      method: "get",
      path: "/ops/reconciliation/provider/latest",
      operation: {
        operationId: "opsProviderReconciliationLatest",
        summary: "The latest provider reconciliation",
        description: "The newest run, whoever ran it (an operator, or the daily cron).",
        tags: ["operators"],
        security,
        responses: {
          "200": jsonResponse("The latest run.", "ProviderReconciliationRun"),
          "404": problemResponse("No provider reconciliation has run yet."),
          ...unauthorized,
        },
      },
    },
    {
      method: "get",
      path: "/ops/reconciliation/provider/cases",
      operation: {
        operationId: "opsProviderCases",
        summary: "Paid-after-release cases (an extension of the contract)",
        description:
          "Transfers the provider paid after we released their hold: never corrected against the customer, each open until an operator records a decision. Oldest first.",
        tags: ["operators"],
        security,
        parameters: queryParameters(casesQuery, {
          state: "`open` (default) or `all`.",
          limit: "At most this many, 1 to 100 (default 100).",
        }),
        responses: {
          "200": jsonResponse("The cases.", "ProviderCaseList"),
          "400": problemResponse("An unknown state, a bad limit, or an unknown query parameter."),
          ...unauthorized,
        },
      },
    },
    {
      method: "post",
      path: "/ops/reconciliation/provider/cases/{id}/decision",
      operation: {
        operationId: "opsProviderCaseDecide",
        summary: "Record an operator's decision on a case (an extension of the contract)",
        description:
          "`recovered`, `written_off` or `provider_error`, with a note (required). Recorded once, with its actor, and audited as `transfer_resolved`; no money moves here.",
        tags: ["operators"],
        security,
        parameters: [caseId],
        requestBody: jsonBody("CaseDecisionRequest"),
        responses: {
          "200": jsonResponse("The decided case.", "ProviderCase"),
          "400": problemResponse("An unknown decision, or no note."),
          "404": problemResponse("No case for this transfer."),
          "409": problemResponse("The case was already decided."),
          ...unauthorized,
        },
      },
    },
  ];
}
