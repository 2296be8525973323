// `npm run lint:openapi`: the OpenAPI document exactly as the Worker serves it (GET
// /openapi.json from the built Worker, run locally by wrangler without a database), written to
// test-results/openapi.json and linted with Redocly's recommended rules. Any error fails.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { unstable_startWorker } from "wrangler";

const outputPath = "test-results/openapi.json";

// The local environment (the sandbox's paths included, so every path is linted) with the example
// secrets: the Worker serves nothing until its configuration is complete, the document included.
// The database is never reached: /openapi.json reads none.
const plain = (value: string) => ({ type: "plain_text" as const, value });
const worker = await unstable_startWorker({
  config: "wrangler.toml",
  env: "local",
  bindings: {
    DATABASE_URL: plain("postgres://lint@127.0.0.1:1/lint"),
    JWT_SECRET: plain("local-dev-jwt-secret-change-me-0123456789abcdef"),
    WEBHOOK_SECRET: plain("whsec_bG9jYWwtZGV2LXdlYmhvb2stc2VjcmV0LTAxMjM0NTY3ODk="),
    SANDBOX_WEBHOOK_SECRET: plain("whsec_bG9jYWwtZGV2LXdlYmhvb2stc2VjcmV0LTAxMjM0NTY3ODk="),
    OPS_TOKEN: plain("local-ops-token-change-me-0123456789abcdef"),
  },
  dev: { server: { port: 0 }, inspector: false, logLevel: "error" },
});
let document: string;
try {
  await worker.ready;
  const response = await worker.fetch("http://127.0.0.1:8787/openapi.json");
  if (response.status !== 200) throw new Error(`GET /openapi.json answered ${response.status}`);
  document = JSON.stringify(await response.json(), null, 2);
} finally {
  await worker.dispose();
}
mkdirSync("test-results", { recursive: true });
writeFileSync(outputPath, document);
const lint = spawnSync("npx", ["--no-install", "redocly", "lint", outputPath, "--format", "stylish"], { stdio: "inherit" });
process.exit(lint.status ?? 1);
