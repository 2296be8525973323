// What an operator (a person or the ops token) can do, as operator_actions records it: the
// table's CHECK and the API's audit schema both read this list.
export const operatorActionKinds = [
  "account_created",
  "credit",
  "credit_requested",
  "credit_approved",
  "limits_changed",
  "transfer_resolved",
  "reconciliation_run",
  "contestation_submitted",
  "contestation_decided",
  "device_registered",
  "device_removed",
] as const;
