// HS256 JWT signing for local tools (the demo). Node only: tests in workerd mint their own.
import { createHmac } from "node:crypto";

export interface JwtClaims {
  sub: string;
  /** Expiry, Unix seconds. */
  exp: number;
  iat?: number;
  [claim: string]: unknown;
}

const base64Url = (data: string | Buffer): string => Buffer.from(data).toString("base64url");

export function signHs256Jwt(claims: JwtClaims, secret: string): string {
  const header = base64Url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const payload = base64Url(JSON.stringify(claims));
  const signature = createHmac("sha256", secret).update(`${header}.${payload}`).digest();
  return `${header}.${payload}.${base64Url(signature)}`;
}

/** A token for `accountId` that expires `lifetimeSeconds` from now. */
export function mintAccountToken(accountId: string, secret: string, lifetimeSeconds: number, nowMs = Date.now()): string {
  const nowSeconds = Math.floor(nowMs / 1000);
  return signHs256Jwt({ sub: accountId, iat: nowSeconds, exp: nowSeconds + lifetimeSeconds }, secret);
}
