// The Hono context of every route: the Worker's bindings and what middleware sets.

export interface AppEnv {
  Bindings: Env;
  Variables: { requestId: string; accountId: string };
}
