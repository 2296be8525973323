// The Hono context of every route: the Worker's bindings and what middleware sets.

export interface AppEnv {
  Bindings: Env;
  /**
   * `deviceId`: the client token's device (src/http/auth/client-auth.ts), null when it names none.
   * `actor`: who an /ops request acts as (an Access email, or `ops-token`); `operatorId`: who
   * that is (`access:<sub>`, or `ops-token`), see src/auth/operators.ts.
   */
  Variables: { requestId: string; accountId: string; deviceId: string | null; actor: string; operatorId: string };
}
