// The operators' operations (CONTRACT §5).
import { auditQuery } from "../../audit/query.ts";
import { opsEventsQuery } from "../ops/events.ts";
import { opsListTransfersQuery } from "../ops/transfers.ts";
import {
  jsonBody,
  jsonResponse,
  pathParameter,
  problemResponse,
  queryParameters,
  retryAfterHeader,
  wwwAuthenticateHeader,
} from "./build.ts";
import { schemaRef } from "./components.ts";
import { providerReconciliationOperations } from "./reconciliation-paths.ts";
import type { Parameter, RoutedOperation, SecurityRequirement } from "./types.ts";

export const opsSecurity: SecurityRequirement[] = [{ accessJwt: [] }, { opsToken: [] }];

const unauthorized = {
  "401": problemResponse(
    "Missing or wrong operator credentials: an invalid Access assertion or operator token (a client JWT is a wrong token here).",
    wwwAuthenticateHeader,
  ),
  "429": problemResponse("Too many failed operator sign-ins from this IP address.", retryAfterHeader),
};
const accountId: Parameter = pathParameter("id", "The account id: 1 to 64 of [A-Za-z0-9_-].", schemaRef("AccountId"));
const transferId: Parameter = pathParameter("id", "The transfer id.", { type: "string", format: "uuid" });
const badAccountId = problemResponse("The account id is not 1 to 64 of [A-Za-z0-9_-] (or, with a body, invalid fields).");

export function opsOperations(): RoutedOperation[] {
  return [
    {
      method: "put",
      path: "/ops/accounts/{id}",
      operation: {
        operationId: "opsCreateAccount",
        summary: "Create an account",
        description: "Creates the customer account with a zero balance; idempotent.",
        tags: ["operators"],
        security: opsSecurity,
        parameters: [accountId],
        responses: {
          "201": jsonResponse("Created; its balance.", "Balance"),
          "200": jsonResponse("It already existed; its balance.", "Balance"),
          "400": badAccountId,
          ...unauthorized,
        },
      },
    },
    {
      method: "post",
      path: "/ops/accounts/{id}/credits",
      operation: {
        operationId: "opsCreditAccount",
        summary: "Credit an account",
        description:
          "A balanced ledger credit against the funding account. Repeating `idempotency_key` credits once and answers `200` with the balance and `Idempotent-Replayed: true`; the same key with another amount is `422`. Above `OPS_CREDIT_APPROVAL_ABOVE_CENTS` (default 1000000) nothing is applied: `202 pending_approval`, until another person approves it.",
        tags: ["operators"],
        security: opsSecurity,
        parameters: [accountId],
        requestBody: jsonBody("CreditRequest"),
        responses: {
          "200": jsonResponse("The balance after the credit (or after the first credit with this key).", "Balance", {
            "Idempotent-Replayed": { description: "`true` on a repeated key.", schema: { type: "string", enum: ["true"] } },
          }),
          "202": jsonResponse("Above the approval threshold: recorded, waiting for a second person.", "CreditPending"),
          "400": badAccountId,
          ...unauthorized,
          "404": problemResponse("No such account."),
          "413": problemResponse("The body is over 16 KiB."),
          "422": problemResponse("This `idempotency_key` already belongs to another credit (`type` ends in `/idempotency-key-reused`)."),
        },
      },
    },
    {
      method: "put",
      path: "/ops/accounts/{id}/limits",
      operation: {
        operationId: "opsSetLimits",
        summary: "Set an account's limits",
        description:
          "Replaces the account's limits: each field is optional, and an absent one means the default. Each limit is compared with the one in force: a decrease applies at once (and drops a waiting increase of that limit), an increase 24 h later, listed in the answer's `pending` with its `effective_at`. A later `night_starts_at` shortens the night window, so it counts as an increase.",
        tags: ["operators"],
        security: opsSecurity,
        parameters: [accountId],
        requestBody: jsonBody("SetLimitsRequest"),
        responses: {
          "200": jsonResponse("The account's limits in force now, and the increases waiting (`pending`).", "Limits"),
          "400": badAccountId,
          ...unauthorized,
          "404": problemResponse("No such account."),
          "413": problemResponse("The body is over 16 KiB."),
        },
      },
    },
    {
      method: "get",
      path: "/ops/transfers",
      operation: {
        operationId: "opsListTransfers",
        summary: "Transfers of any account",
        description:
          "With `state`, a work queue (e.g. `needs_review`): oldest first. Without it, newest first. Filter by account with `account_id`.",
        tags: ["operators"],
        security: opsSecurity,
        parameters: queryParameters(opsListTransfersQuery, {
          state: "Only transfers in this state.",
          account_id: "Only this account's transfers.",
          limit: "At most this many, 1 to 100.",
        }),
        responses: {
          "200": jsonResponse("The transfers, each with its account.", "OpsTransferList"),
          "400": problemResponse("An unknown state, a malformed account id or limit, or an unknown query parameter."),
          ...unauthorized,
        },
      },
    },
    {
      method: "get",
      path: "/ops/transfers/{id}",
      operation: {
        operationId: "opsGetTransfer",
        summary: "A transfer's whole story",
        description:
          "The transfer with its history (actor and evidence of each transition), every provider call with its answer, the hold and the ledger entries.",
        tags: ["operators"],
        security: opsSecurity,
        parameters: [transferId],
        responses: { "200": jsonResponse("The story.", "TransferStory"), ...unauthorized, "404": problemResponse("No such transfer.") },
      },
    },
    {
      method: "post",
      path: "/ops/transfers/{id}/resolve",
      operation: {
        operationId: "opsResolveTransfer",
        summary: "Resolve a transfer in review",
        description:
          "Only from `needs_review`: `sent` settles it (`completed`), `not_sent` releases the hold (`compensated`, `not_sent`). A transfer held before anything was sent (`held_before_sending`, an anti-fraud review) takes `approve` (send it now) or `not_sent`. The note and the actor go into the operators' history and the audit; the client sees neither.",
        tags: ["operators"],
        security: opsSecurity,
        parameters: [transferId],
        requestBody: jsonBody("ResolveRequest"),
        responses: {
          "200": jsonResponse("The story after the decision.", "TransferStory"),
          "400": problemResponse("Invalid fields (see `errors`)."),
          ...unauthorized,
          "404": problemResponse("No such transfer."),
          "409": problemResponse(
            "The transfer is not in `needs_review`, or the outcome does not fit it (`sent` before anything was sent, `approve` after).",
          ),
          "413": problemResponse("The body is over 16 KiB."),
          "503": problemResponse("The decision could not be recorded; try again.", retryAfterHeader),
        },
      },
    },
    {
      method: "post",
      path: "/ops/credits/{credit_id}/approve",
      operation: {
        operationId: "opsApproveCredit",
        summary: "Approve a large credit (four eyes)",
        description:
          "Applies a pending credit, once, when approved by a person other than its requester. `ops-token` can request credits but never approve them. Repeating one's own approval answers the balance again with `Idempotent-Replayed: true`.",
        tags: ["operators"],
        security: opsSecurity,
        parameters: [pathParameter("credit_id", "The credit_id of the 202 answer.", { type: "string", format: "uuid" })],
        responses: {
          "200": jsonResponse("Applied; the balance after it.", "Balance", {
            "Idempotent-Replayed": { description: "`true` on a repeated approval.", schema: { type: "string", enum: ["true"] } },
          }),
          ...unauthorized,
          "403": problemResponse("The requester, or `ops-token`, cannot approve."),
          "404": problemResponse("No such credit request."),
          "409": problemResponse("Another person already approved it; nothing was applied again."),
        },
      },
    },
    {
      method: "get",
      path: "/ops/audit",
      operation: {
        operationId: "opsAudit",
        summary: "Operator actions, newest first",
        description:
          "Every operator action with its actor (an Access email, or `ops-token`), time and what changed: account creation, credits and their approvals, limit changes (old and new values), transfer resolutions, reconciliation runs.",
        tags: ["operators"],
        security: opsSecurity,
        parameters: queryParameters(auditQuery, {
          account_id: "Only this account's actions.",
          actor: "Only this actor's actions.",
          limit: "At most this many, 1 to 100 (default 50).",
          cursor: "The `next_cursor` of the previous page.",
        }),
        responses: {
          "200": jsonResponse("A page of actions.", "AuditPage"),
          "400": problemResponse("A malformed filter or limit, a cursor this API did not issue, or an unknown query parameter."),
          ...unauthorized,
        },
      },
    },
    {
      method: "get",
      path: "/ops/reconciliation",
      operation: {
        operationId: "opsReconciliation",
        summary: "Check the ledger",
        description:
          "Every balance equals the sum of its entries, every held amount equals its open holds, and all entries sum to zero. Divergences are reported, never repaired.",
        tags: ["operators"],
        security: opsSecurity,
        responses: { "200": jsonResponse("The report.", "Reconciliation"), ...unauthorized },
      },
    },
    ...providerReconciliationOperations(opsSecurity, unauthorized),
    {
      method: "post",
      path: "/ops/sweep",
      operation: {
        operationId: "opsSweep",
        summary: "Run the stuck-saga sweeper now",
        description: "Pokes every saga whose next check is overdue; it also runs on a cron every minute.",
        tags: ["operators"],
        security: opsSecurity,
        responses: { "200": jsonResponse("How many sagas were poked.", "Sweep"), ...unauthorized },
      },
    },
    {
      method: "get",
      path: "/ops/events",
      operation: {
        operationId: "opsListEvents",
        summary: "Outbound events and their delivery attempts",
        description:
          "With `transfer_id`: that transfer's events in sequence, each with every delivery attempt (status, duration, error). Without: the events not yet delivered, parked ones first (a receiver that refused them for 3 days), then the oldest.",
        tags: ["operators"],
        security: opsSecurity,
        parameters: queryParameters(opsEventsQuery, {
          transfer_id: "The transfer whose events to list.",
          limit: "At most this many events.",
        }),
        responses: {
          "200": jsonResponse("The events.", "OpsEventList"),
          "400": problemResponse("`transfer_id` is not a UUID, or `limit` is out of range."),
          ...unauthorized,
        },
      },
    },
  ];
}
