// The type check `npm test` and `npm run typecheck` run: the Worker's program (workers types) and
// the Node program (scripts, bench, configs) side by side, one tsc each, incremental: a run keeps
// its build info under node_modules/.cache/tsc, so the next one re-checks only what changed.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const buildInfoDir = path.join(root, "node_modules", ".cache", "tsc");

/** One tsconfig per global environment: the Worker's and Node's types cannot share a program. */
const programs = [
  { name: "worker", project: "tsconfig.json" },
  { name: "node", project: "tsconfig.node.json" },
] as const;

export interface TypecheckResult {
  ok: boolean;
  /** tsc's diagnostics, one block per program that has any. */
  output: string;
}

function check(program: (typeof programs)[number]): Promise<{ ok: boolean; output: string }> {
  const tsc = path.join(root, "node_modules", ".bin", "tsc");
  const args = [
    "--noEmit",
    "-p",
    program.project,
    "--incremental",
    "--tsBuildInfoFile",
    path.join(buildInfoDir, `${program.name}.tsbuildinfo`),
  ];
  const child = spawn(tsc, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  return new Promise((resolve) => {
    child.once("close", (code) => resolve({ ok: code === 0, output: output === "" ? "" : `tsc -p ${program.project}:\n${output}` }));
  });
}

export async function typecheck(): Promise<TypecheckResult> {
  const results = await Promise.all(programs.map(check));
  return { ok: results.every((r) => r.ok), output: results.map((r) => r.output).join("") };
}
