// The names of the document's components.schemas. A route's description names its bodies by
// these; components.ts maps each name to its zod schema. Kept apart from components.ts so a
// route file can name a body without importing every route's schemas back.
import type { JsonSchema } from "./types.ts";

export const responseComponentIds = [
  "AccountId",
  "TransferState",
  "HistoryEntry",
  "TransferReturn",
  "Transfer",
  "TransferPage",
  "RecurringOccurrence",
  "RecurringTransfer",
  "RecurringTransferPage",
  "Balance",
  "BrCodePreview",
  "Limits",
  "ClientLimits",
  "PixKeyOwner",
  "TrustedRecipient",
  "TrustedRecipientList",
  "FieldError",
  "Problem",
  "Health",
  "WebhookAck",
  "OpsTransfer",
  "OpsTransferList",
  "StoryHistoryEntry",
  "ProviderCall",
  "TransferStory",
  "Reconciliation",
  "Sweep",
  "CreditPending",
  "AuditEntry",
  "AuditPage",
  "OutboundEvent",
  "EventAttempt",
  "OpsEvent",
  "OpsEventList",
  "OpsOverview",
  "SandboxPayment",
  "SandboxPaymentList",
  "SandboxOutage",
  "SandboxClock",
  "ProviderAnswer",
  "ProviderDivergence",
  "ProviderReconciliationRun",
  "ProviderCase",
  "ProviderCaseList",
  "Contestation",
  "ContestationList",
  "OpsContestation",
  "OpsContestationList",
  "Device",
  "DeviceList",
] as const;

export const requestComponentIds = [
  "CreateTransferRequest",
  "CreateRecurringTransferRequest",
  "PreviewBrCodeRequest",
  "PutTrustedRecipientRequest",
  "CreditRequest",
  "SetLimitsRequest",
  "ResolveRequest",
  "WebhookEvent",
  "EfiWebhookDelivery",
  "ProviderSendRequest",
  "ProviderResolveRequest",
  "SandboxOutageRequest",
  "SandboxChargeChangeRequest",
  "SandboxClockRequest",
  "ProviderReconciliationRequest",
  "CaseDecisionRequest",
  "ProviderContestRequest",
  "CreateContestationRequest",
  "OpsContestationSubmittedRequest",
  "OpsContestationDecisionRequest",
  "RegisterDeviceRequest",
] as const;

export type ResponseComponentId = (typeof responseComponentIds)[number];
export type RequestComponentId = (typeof requestComponentIds)[number];
export type ComponentId = ResponseComponentId | RequestComponentId;

export function schemaRef(id: ComponentId): JsonSchema {
  return { $ref: `#/components/schemas/${id}` };
}
