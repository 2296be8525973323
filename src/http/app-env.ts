// The Hono context of every route: the Worker's bindings and what middleware sets.

export interface AppEnv {
  Bindings: Env;
  /** `actor`: who an /ops request acts as (an Access email, or `ops-token`). */
  Variables: { requestId: string; accountId: string; actor: string };
}
