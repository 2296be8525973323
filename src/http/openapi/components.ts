// components.schemas of the OpenAPI document, converted with z.toJSONSchema from the very zod
// schemas the routes validate with (requests) and the tests check responses with (responses).

import type { z } from "zod";
import * as eventResponses from "../../contract/event-schemas.ts";
import * as opsResponses from "../../contract/ops-schemas.ts";
import { opsOverviewSchema } from "../../contract/overview-schema.ts";
import * as responses from "../../contract/schemas.ts";
import { providerReconciliationBody } from "../../reconciliation/window-request.ts";
import { previewBrCodeBody } from "../br-codes.ts";
import { createContestationBody } from "../contestations.ts";
import { registerDeviceBody } from "../device-requests.ts";
import { efiWebhookPayloadSchema } from "../efi-webhooks.ts";
import { setLimitsBody } from "../limits.ts";
import { creditBody } from "../ops/accounts.ts";
import { opsDecisionBody, opsSubmittedBody } from "../ops/contestations.ts";
import { caseDecisionBody } from "../ops/provider-reconciliation.ts";
import * as reconciliation from "../ops/provider-reconciliation-schemas.ts";
import { resolveBody } from "../ops/transfers.ts";
import { createRecurringTransferBody } from "../recurring-requests.ts";
import { chargeChangeBodySchema, resolveBodySchema } from "../sandbox-br-codes.ts";
import { clockAdvanceBody } from "../sandbox-clock.ts";
import { providerContestBodySchema } from "../sandbox-contestations.ts";
import { outageBodySchema } from "../sandbox-drills.ts";
import { sendBodySchema } from "../sandbox-payments.ts";
import * as sandboxResponses from "../sandbox-schemas.ts";
import { createTransferBody } from "../transfer-requests.ts";
import { putTrustedRecipientBody } from "../trusted-recipients.ts";
import { webhookPayloadSchema } from "../webhooks.ts";
import type { RequestComponentId, ResponseComponentId } from "./component-ids.ts";
import type { JsonSchema } from "./types.ts";
import { toComponents } from "./zod-json.ts";

/** Response bodies and the parts they share; converted as the server writes them (`output`). */
const responseSchemas = {
  AccountId: responses.accountIdSchema,
  TransferState: responses.transferStateSchema,
  HistoryEntry: responses.historyEntrySchema,
  TransferReturn: responses.transferReturnSchema,
  Transfer: responses.transferSchema,
  TransferPage: responses.transferPageSchema,
  RecurringOccurrence: responses.recurringOccurrenceSchema,
  RecurringTransfer: responses.recurringTransferSchema,
  RecurringTransferPage: responses.recurringTransferPageSchema,
  Balance: responses.balanceSchema,
  BrCodePreview: responses.brCodePreviewSchema,
  Limits: responses.limitsSchema,
  ClientLimits: responses.clientLimitsSchema,
  PixKeyOwner: responses.pixKeyOwnerSchema,
  TrustedRecipient: responses.trustedRecipientSchema,
  TrustedRecipientList: responses.trustedRecipientListSchema,
  FieldError: responses.fieldErrorSchema,
  Problem: responses.problemSchema,
  Health: responses.healthSchema,
  WebhookAck: responses.webhookAckSchema,
  OpsTransfer: opsResponses.opsTransferSchema,
  OpsTransferList: opsResponses.opsTransferListSchema,
  StoryHistoryEntry: opsResponses.storyHistoryEntrySchema,
  ProviderCall: opsResponses.providerCallSchema,
  TransferStory: opsResponses.transferStorySchema,
  Reconciliation: opsResponses.reconciliationSchema,
  Sweep: opsResponses.sweepSchema,
  CreditPending: opsResponses.creditPendingSchema,
  AuditEntry: opsResponses.auditEntrySchema,
  AuditPage: opsResponses.auditPageSchema,
  OutboundEvent: eventResponses.outboundEventSchema,
  EventAttempt: opsResponses.eventAttemptSchema,
  OpsEvent: opsResponses.opsEventSchema,
  OpsEventList: opsResponses.opsEventListSchema,
  OpsOverview: opsOverviewSchema,
  SandboxPayment: sandboxResponses.sandboxPaymentSchema,
  SandboxPaymentList: sandboxResponses.sandboxPaymentListSchema,
  SandboxOutage: sandboxResponses.sandboxOutageSchema,
  SandboxClock: sandboxResponses.sandboxClockSchema,
  ProviderAnswer: sandboxResponses.providerAnswerSchema,
  ProviderDivergence: reconciliation.providerDivergenceSchema,
  ProviderReconciliationRun: reconciliation.providerReconciliationRunSchema,
  ProviderCase: reconciliation.providerCaseSchema,
  ProviderCaseList: reconciliation.providerCaseListSchema,
  Contestation: responses.contestationSchema,
  ContestationList: responses.contestationListSchema,
  OpsContestation: opsResponses.opsContestationSchema,
  OpsContestationList: opsResponses.opsContestationListSchema,
  Device: responses.deviceSchema,
  DeviceList: responses.deviceListSchema,
} as const satisfies Record<ResponseComponentId, z.ZodType>;

/** Request bodies, exactly as the routes parse them; converted as clients write them (`input`). */
const requestSchemas = {
  CreateTransferRequest: createTransferBody,
  CreateRecurringTransferRequest: createRecurringTransferBody,
  PreviewBrCodeRequest: previewBrCodeBody,
  PutTrustedRecipientRequest: putTrustedRecipientBody,
  CreditRequest: creditBody,
  SetLimitsRequest: setLimitsBody,
  ResolveRequest: resolveBody,
  WebhookEvent: webhookPayloadSchema,
  EfiWebhookDelivery: efiWebhookPayloadSchema,
  ProviderSendRequest: sendBodySchema,
  ProviderResolveRequest: resolveBodySchema,
  SandboxOutageRequest: outageBodySchema,
  SandboxChargeChangeRequest: chargeChangeBodySchema,
  SandboxClockRequest: clockAdvanceBody,
  ProviderReconciliationRequest: providerReconciliationBody,
  CaseDecisionRequest: caseDecisionBody,
  ProviderContestRequest: providerContestBodySchema,
  CreateContestationRequest: createContestationBody,
  OpsContestationSubmittedRequest: opsSubmittedBody,
  OpsContestationDecisionRequest: opsDecisionBody,
  RegisterDeviceRequest: registerDeviceBody,
} as const satisfies Record<RequestComponentId, z.ZodType>;

let converted: Record<string, JsonSchema> | undefined;

/** Pure and fixed for the life of the isolate: converted once. */
export function componentSchemas(): Record<string, JsonSchema> {
  converted ??= { ...toComponents(responseSchemas, "output"), ...toComponents(requestSchemas, "input") };
  return converted;
}
