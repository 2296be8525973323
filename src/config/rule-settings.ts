// Default Pix limits and anti-fraud settings from the environment (CONTRACT §1); an account's
// own limits, set by operators, take precedence over the first four.
import { readIntegerVariable } from "./integer.ts";

export interface RuleSettings {
  per_transfer_cents: number;
  daily_cents: number;
  night_per_transfer_cents: number;
  /** The cap on the sum of one night window's transfers. */
  night_total_cents: number;
  velocity_max_per_10_min: number;
  new_key_review_above_cents: number;
}

export interface RuleSource {
  MAX_TRANSFER_CENTS?: string | undefined;
  DAILY_LIMIT_CENTS?: string | undefined;
  NIGHT_TRANSFER_LIMIT_CENTS?: string | undefined;
  NIGHT_TOTAL_LIMIT_CENTS?: string | undefined;
  VELOCITY_MAX_PER_10_MIN?: string | undefined;
  NEW_KEY_REVIEW_ABOVE_CENTS?: string | undefined;
}

const centsMax = Number.MAX_SAFE_INTEGER;

export function readRuleSettings(env: RuleSource): RuleSettings {
  return {
    per_transfer_cents: readIntegerVariable("MAX_TRANSFER_CENTS", env.MAX_TRANSFER_CENTS, 10_000_000, 1, centsMax),
    daily_cents: readIntegerVariable("DAILY_LIMIT_CENTS", env.DAILY_LIMIT_CENTS, 5_000_000, 0, centsMax),
    night_per_transfer_cents: readIntegerVariable("NIGHT_TRANSFER_LIMIT_CENTS", env.NIGHT_TRANSFER_LIMIT_CENTS, 100_000, 1, centsMax),
    night_total_cents: readIntegerVariable("NIGHT_TOTAL_LIMIT_CENTS", env.NIGHT_TOTAL_LIMIT_CENTS, 100_000, 0, centsMax),
    velocity_max_per_10_min: readIntegerVariable("VELOCITY_MAX_PER_10_MIN", env.VELOCITY_MAX_PER_10_MIN, 30, 1, 100_000),
    new_key_review_above_cents: readIntegerVariable("NEW_KEY_REVIEW_ABOVE_CENTS", env.NEW_KEY_REVIEW_ABOVE_CENTS, 500_000, 0, centsMax),
  };
}
