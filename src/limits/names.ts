// The limits an operator sets per account (PUT /ops/accounts/:id/limits), by their field names:
// the same names key the pending increases and the audit trail.
export const limitNames = [
  "per_transfer_cents",
  "daily_cents",
  "night_per_transfer_cents",
  "night_total_cents",
  "night_starts_at",
] as const;

export type LimitName = (typeof limitNames)[number];
