// vitest.config.ts always binds these for the tests, so they read them as set; the Worker's own
// code sees them optional (worker-configuration.d.ts, src/config/secrets-env.d.ts).
declare namespace Cloudflare {
  interface Env {
    OPS_TOKEN: string;
    WEBHOOK_SECRET: string;
    SANDBOX_WEBHOOK_SECRET: string;
    OPS_ALERT_SECRET: string;
    JWT_SECRET: string;
  }
}
