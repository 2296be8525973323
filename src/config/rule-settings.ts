// Default Pix limits and anti-fraud settings from the environment (CONTRACT §1); an account's
// own limits, set by operators, take precedence over the first four.
import { type DeviceRulesSource, readDeviceRules } from "./device-rules.ts";
import { readTunable } from "./tunables.ts";

export interface RuleSettings {
  per_transfer_cents: number;
  daily_cents: number;
  night_per_transfer_cents: number;
  /** The cap on the sum of one night window's transfers. */
  night_total_cents: number;
  velocity_max_per_10_min: number;
  new_key_review_above_cents: number;
  /** DEVICE_RULES: a transfer from a device not registered for the account is capped by the two below. */
  device_rules: boolean;
  new_device_transfer_cents: number;
  /** Per São Paulo day, across the account's transfers from unregistered devices. */
  new_device_daily_cents: number;
  /** Scheduled transfers (one-off and recurring occurrences) an account may have waiting. */
  pending_scheduled_max: number;
}

export interface RuleSource extends DeviceRulesSource {
  MAX_TRANSFER_CENTS?: string | undefined;
  DAILY_LIMIT_CENTS?: string | undefined;
  NIGHT_TRANSFER_LIMIT_CENTS?: string | undefined;
  NIGHT_TOTAL_LIMIT_CENTS?: string | undefined;
  VELOCITY_MAX_PER_10_MIN?: string | undefined;
  NEW_KEY_REVIEW_ABOVE_CENTS?: string | undefined;
  NEW_DEVICE_TRANSFER_LIMIT_CENTS?: string | undefined;
  NEW_DEVICE_DAILY_LIMIT_CENTS?: string | undefined;
  MAX_PENDING_SCHEDULED?: string | undefined;
}

export function readRuleSettings(env: RuleSource): RuleSettings {
  return {
    per_transfer_cents: readTunable("MAX_TRANSFER_CENTS", env.MAX_TRANSFER_CENTS),
    daily_cents: readTunable("DAILY_LIMIT_CENTS", env.DAILY_LIMIT_CENTS),
    night_per_transfer_cents: readTunable("NIGHT_TRANSFER_LIMIT_CENTS", env.NIGHT_TRANSFER_LIMIT_CENTS),
    night_total_cents: readTunable("NIGHT_TOTAL_LIMIT_CENTS", env.NIGHT_TOTAL_LIMIT_CENTS),
    velocity_max_per_10_min: readTunable("VELOCITY_MAX_PER_10_MIN", env.VELOCITY_MAX_PER_10_MIN),
    new_key_review_above_cents: readTunable("NEW_KEY_REVIEW_ABOVE_CENTS", env.NEW_KEY_REVIEW_ABOVE_CENTS),
    device_rules: readDeviceRules(env),
    new_device_transfer_cents: readTunable("NEW_DEVICE_TRANSFER_LIMIT_CENTS", env.NEW_DEVICE_TRANSFER_LIMIT_CENTS),
    new_device_daily_cents: readTunable("NEW_DEVICE_DAILY_LIMIT_CENTS", env.NEW_DEVICE_DAILY_LIMIT_CENTS),
    pending_scheduled_max: readTunable("MAX_PENDING_SCHEDULED", env.MAX_PENDING_SCHEDULED),
  };
}
