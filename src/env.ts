// The Worker's bindings and variables (CONTRACT §1). Strings as wrangler delivers them;
// src/config.ts parses and bounds them once.

import type { SandboxProvider } from "./provider/sandbox/sandbox-object.ts";
import type { TransferSaga } from "./saga-object.ts";

export interface Env {
  TRANSFER_SAGA: DurableObjectNamespace<TransferSaga>;
  SANDBOX: DurableObjectNamespace<SandboxProvider>;
  /** Per-account limit on POST /v1/transfers (wrangler.toml `[[ratelimits]]`). */
  TRANSFER_RATE_LIMIT: RateLimit;
  DATABASE_URL: string;
  /** Local only: host:port of the WebSocket-to-TCP proxy in front of a plain PostgreSQL. */
  NEON_WS_PROXY?: string;
  JWT_SECRET?: string;
  JWT_JWKS_URL?: string;
  JWT_ISSUER?: string;
  JWT_AUDIENCE?: string;
  WEBHOOK_SECRET: string;
  OPS_TOKEN: string;
  /** Optional: where a transfer entering needs_review is POSTed, signed like our webhooks. */
  OPS_ALERT_URL?: string;
  /** Outbound events (CONTRACT §6): where they are POSTed, their own whsec_ secret, first retry delay. */
  EVENTS_URL?: string;
  EVENTS_SECRET?: string;
  EVENTS_RETRY_FIRST_MS?: string;
  PROVIDER_URL?: string;
  PROVIDER_TOKEN?: string;
  SANDBOX_PROVIDER?: string;
  SAGA_FIRST_CHECK_MS?: string;
  SAGA_MAX_CHECK_MS?: string;
  SAGA_DEADLINE_MS?: string;
  PROVIDER_TIMEOUT_MS?: string;
  PROVIDER_NOT_FOUND_GRACE_MS?: string;
  SANDBOX_CONFIRM_MS?: string;
  MAX_TRANSFER_CENTS?: string;
  DAILY_LIMIT_CENTS?: string;
  NIGHT_TRANSFER_LIMIT_CENTS?: string;
  VELOCITY_MAX_PER_10_MIN?: string;
  NEW_KEY_REVIEW_ABOVE_CENTS?: string;
}
