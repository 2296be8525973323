// The numeric variables (src/config/tunables.ts holds their defaults and bounds). wrangler.toml
// sets one only to differ from its default, so `wrangler types` (worker-configuration.d.ts) may not
// list them; src/config/parse.ts fails to compile when a name here and the table's part ways.
interface Tunables {
  SAGA_FIRST_CHECK_MS?: string;
  SAGA_MAX_CHECK_MS?: string;
  SAGA_DEADLINE_MS?: string;
  PROVIDER_NOT_FOUND_GRACE_MS?: string;
  PROVIDER_TIMEOUT_MS?: string;
  SANDBOX_CONFIRM_MS?: string;
  PROVIDER_SEND_CONCURRENCY?: string;
  OPS_CREDIT_APPROVAL_ABOVE_CENTS?: string;
  EVENTS_RETRY_FIRST_MS?: string;
  MAX_TRANSFER_CENTS?: string;
  DAILY_LIMIT_CENTS?: string;
  NIGHT_TRANSFER_LIMIT_CENTS?: string;
  NIGHT_TOTAL_LIMIT_CENTS?: string;
  VELOCITY_MAX_PER_10_MIN?: string;
  NEW_KEY_REVIEW_ABOVE_CENTS?: string;
  MAX_STREAMS_PER_ACCOUNT?: string;
  TRUSTED_RECIPIENT_DELAY_MS?: string;
  NEW_DEVICE_TRANSFER_LIMIT_CENTS?: string;
  NEW_DEVICE_DAILY_LIMIT_CENTS?: string;
  DEVICE_REGISTRATION_DELAY_MS?: string;
  MAX_PENDING_SCHEDULED?: string;
}

interface Env extends Tunables {}

declare namespace Cloudflare {
  interface Env extends Tunables {}
}
