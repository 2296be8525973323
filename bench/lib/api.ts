// The Worker's HTTP API as a client, a provider and an operator call it (CONTRACT §2-§4).
import { createHmac, randomUUID } from "node:crypto";
import { mintAccountToken } from "../../scripts/lib/jwt.ts";
import { webhookHeaders } from "../../src/lib/webhook-headers.ts";

export interface StackSecrets {
  jwtSecret: string;
  webhookSecret: string;
  opsToken: string;
}

/** Fresh random secrets for one run: the bench never reads .dev.vars. */
export function benchSecrets(): StackSecrets {
  return {
    jwtSecret: `bench-jwt-${randomUUID()}`,
    webhookSecret: `whsec_${Buffer.from(`bench-webhook-${randomUUID()}`).toString("base64")}`,
    opsToken: `bench-ops-${randomUUID()}`,
  };
}

export function secretVars(secrets: StackSecrets): [string, string][] {
  return [
    ["JWT_SECRET", secrets.jwtSecret],
    ["WEBHOOK_SECRET", secrets.webhookSecret],
    // The sandbox signs with its own key: the same one, so its webhooks verify.
    ["SANDBOX_WEBHOOK_SECRET", secrets.webhookSecret],
    ["OPS_TOKEN", secrets.opsToken],
  ];
}

const tokenLifetimeSeconds = 3_600;

/**
 * Standard Webhooks (`v1,` + HMAC-SHA256 of "{id}.{timestamp}.{body}"), signed as a PSP's Node
 * server would, with node:crypto: the Worker's signer (src/lib/webhook-signature.ts) is
 * typed for the Workers' Web Crypto, which does not type-check against Node's definitions.
 */
function signStandardWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestampSeconds}.${body}`).digest("base64")}`;
}

const requestTimeoutMs = 30_000;

export class StackClient {
  private readonly baseUrl: string;
  private readonly secrets: StackSecrets;
  private readonly tokens = new Map<string, string>();

  constructor(baseUrl: string, secrets: StackSecrets) {
    this.baseUrl = baseUrl;
    this.secrets = secrets;
  }

  /** POST /v1/transfers; returns the new transfer's id. */
  async createTransfer(accountId: string, amountCents: number, pixKey: string): Promise<string> {
    const response = await this.send("/v1/transfers", {
      method: "POST",
      headers: { authorization: `Bearer ${this.token(accountId)}`, "content-type": "application/json", "idempotency-key": randomUUID() },
      body: JSON.stringify({ amount_cents: amountCents, pix_key: pixKey, pix_key_type: "email" }),
    });
    const body = (await response.json()) as { id?: string; state?: string };
    if (response.status !== 202 || typeof body.id !== "string") {
      throw new Error(`POST /v1/transfers answered ${response.status}: ${JSON.stringify(body)}`);
    }
    return body.id;
  }

  /** GET /v1/balance of the account; returns its balance in cents. */
  async balanceCents(accountId: string): Promise<number> {
    const response = await this.send("/v1/balance", { method: "GET", headers: { authorization: `Bearer ${this.token(accountId)}` } });
    const body = (await response.json()) as { balance_cents?: number };
    if (response.status !== 200 || typeof body.balance_cents !== "number") throw new Error(`GET /v1/balance answered ${response.status}`);
    return body.balance_cents;
  }

  /** GET /sandbox/provider/pix/:id: one provider status call, as the saga makes it. */
  async providerStatus(transferId: string): Promise<string> {
    const response = await this.send(`/sandbox/provider/pix/${transferId}`, { method: "GET" });
    const body = (await response.json()) as { status?: string };
    if (response.status !== 200) throw new Error(`sandbox status answered ${response.status}`);
    return body.status ?? "unknown";
  }

  /** A signed provider webhook for the transfer; the route answers after the saga's poke. */
  async webhook(transferId: string): Promise<void> {
    const body = JSON.stringify({ type: "pix.payment.updated", data: { idempotency_key: transferId, status: "confirmed" } });
    const id = `msg_${randomUUID()}`;
    const timestampSeconds = Math.floor(Date.now() / 1000);
    const signature = signStandardWebhook(this.secrets.webhookSecret, id, timestampSeconds, body);
    const response = await this.send("/webhooks/provider", {
      method: "POST",
      headers: webhookHeaders(id, timestampSeconds, signature),
      body,
    });
    await response.body?.cancel();
    if (response.status !== 202) throw new Error(`webhook answered ${response.status}`);
  }

  private token(accountId: string): string {
    let token = this.tokens.get(accountId);
    if (token === undefined) {
      token = mintAccountToken(accountId, this.secrets.jwtSecret, tokenLifetimeSeconds);
      this.tokens.set(accountId, token);
    }
    return token;
  }

  private send(path: string, init: RequestInit): Promise<Response> {
    return fetch(`${this.baseUrl}${path}`, { ...init, signal: AbortSignal.timeout(requestTimeoutMs) });
  }
}
