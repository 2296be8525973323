// The Worker's bindings and variables (CONTRACT §1). Strings as wrangler delivers them;
// src/config.ts parses and bounds them once.

import type { SandboxProvider } from "./provider/sandbox/sandbox-object.ts";
import type { SendGate } from "./provider/send-gate/gate-object.ts";
import type { TransferSaga } from "./saga-object.ts";

export interface Env {
  TRANSFER_SAGA: DurableObjectNamespace<TransferSaga>;
  SANDBOX: DurableObjectNamespace<SandboxProvider>;
  /** At most PROVIDER_SEND_CONCURRENCY sends in flight (src/provider/send-gate/). */
  SEND_GATE: DurableObjectNamespace<SendGate>;
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
  /** Which adapter: `sandbox`, `http` or `efi` (unset: PROVIDER_URL if set, else the sandbox). */
  PROVIDER?: string;
  PROVIDER_URL?: string;
  PROVIDER_TOKEN?: string;
  /** Efí (CONTRACT §4b): the mTLS certificate binding (`[[mtls_certificates]]`), production only. */
  EFI_CERT?: Fetcher;
  EFI_BASE_URL?: string;
  EFI_CLIENT_ID?: string;
  EFI_CLIENT_SECRET?: string;
  EFI_PAYER_KEY?: string;
  EFI_WEBHOOK_HMAC?: string;
  EFI_WEBHOOK_IPS?: string;
  /** At most this many sends in flight at the provider across all transfers; 0 = no limit. */
  PROVIDER_SEND_CONCURRENCY?: string;
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
