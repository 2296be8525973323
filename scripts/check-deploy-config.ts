// `npm run check:deploy`: what a bare `wrangler deploy` would ship must be production (CONTRACT
// §1, "Production configuration fails closed"). Reads wrangler's own dry run, with no --env, and
// the configuration wrangler resolves from it, and fails on anything local: the sandbox on, a
// sandbox provider, a workers.dev or preview address, Workers Logs off, the local name.
import { spawnSync } from "node:child_process";
import { realpathSync } from "node:fs";
import path from "node:path";
import { unstable_readConfig } from "wrangler";

const root = path.resolve(import.meta.dirname, "..");
const productionName = "pix-cashout";

function dryRunOutput(): string {
  const launcher = realpathSync(path.join(root, "node_modules/.bin/wrangler"));
  const run = spawnSync(process.execPath, [launcher, "deploy", "--dry-run", "--outdir", path.join(root, "dist")], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", WRANGLER_SEND_ERROR_REPORTS: "false", CLOUDFLARE_ENV: "" },
  });
  if (run.status !== 0) throw new Error(`wrangler deploy --dry-run failed:\n${run.stdout}\n${run.stderr}`);
  return run.stdout;
}

const problems: string[] = [];
const output = dryRunOutput();
if (/env\.SANDBOX_PROVIDER\b/.test(output)) problems.push("the dry run binds SANDBOX_PROVIDER");
if (/env\.PROVIDER \("sandbox"\)/.test(output)) problems.push('the dry run binds PROVIDER = "sandbox"');
if (!/env\.TRANSFER_SAGA\b/.test(output)) problems.push("the dry run lists no TRANSFER_SAGA binding (did its output change?)");

const config = unstable_readConfig({ config: path.join(root, "wrangler.toml") }, {});
if (config.name !== productionName) problems.push(`the top-level name is ${config.name}, not ${productionName}`);
if (config.workers_dev !== false) problems.push("workers_dev is not false");
if (config.preview_urls !== false) problems.push("preview_urls is not false");
if (config.observability?.enabled !== true) problems.push("[observability] enabled is not true");
if (config.upload_source_maps !== true) problems.push("upload_source_maps is not true");
const vars = config.vars as Record<string, unknown>;
if (vars.DEPLOYMENT !== "production")
  problems.push('the top-level [vars] lack DEPLOYMENT = "production": the production marker (src/config/deployment.ts)');
for (const local of ["SANDBOX_PROVIDER", "PROVIDER", "SANDBOX_CONFIRM_MS", "NEON_WS_PROXY"]) {
  if (local in vars) problems.push(`${local} is a top-level var: it belongs to [env.local] or to a secret`);
}

if (problems.length > 0) {
  console.error(`deploy config: a bare \`wrangler deploy\` would not ship production:\n- ${problems.join("\n- ")}`);
  process.exit(1);
}
console.log(`deploy config: a bare \`wrangler deploy\` ships ${productionName} with no sandbox, no workers.dev, logs on`);
