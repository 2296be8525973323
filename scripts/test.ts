// `npm test`: every vitest project, with the type check beside it rather than before it (the
// tests spend much of their time waiting on the network and timers, which leaves a core for
// tsc). Arguments go to vitest, so `npm test -- --reporter=json --outputFile.json=...` reaches it.
//
// The chaos project runs in a vitest process of its own, beside the rest: its faults are global
// to a fault proxy and its files run one at a time, so inside one run it would wait until every
// other file had finished and leave a core idle for two minutes. Its own process has its own
// PostgreSQL, proxies and workerd (the global setup runs per process), so a fault it injects
// never reaches another file. A JSON report asked for is the two runs' reports merged into one.
// Naming projects (`npm test -- --project suite`) runs one vitest with exactly those arguments.
//
// Fails when the type check or either run fails; type errors are printed after the reports.
import { spawn } from "node:child_process";
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { typecheck } from "./lib/typecheck.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The projects of vitest.config.ts that share one run; `chaos` is the other. */
const mainProjects = ["unit", "node", "suite", "devices", "efi", "efi-storm", "events", "clock"] as const;
const jsonOutputFlag = "--outputFile.json=";

function vitest(args: readonly string[]): Promise<number> {
  const child = spawn(path.join(root, "node_modules", ".bin", "vitest"), ["run", ...args], { cwd: root, stdio: "inherit" });
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

interface VitestJsonReport {
  testResults: unknown[];
  success: boolean;
  [count: `num${string}`]: number;
}

/** One report of both runs: every file's results, every count added up. */
async function mergeReports(target: string, parts: readonly string[]): Promise<void> {
  const reports = await Promise.all(parts.map(async (part) => JSON.parse(await readFile(part, "utf8")) as VitestJsonReport));
  const [first, ...rest] = reports;
  if (!first) throw new Error("no vitest report to merge");
  const merged: VitestJsonReport = { ...first, testResults: [...first.testResults] };
  for (const report of rest) {
    merged.testResults.push(...report.testResults);
    merged.success = merged.success && report.success;
    for (const [field, value] of Object.entries(report)) {
      if (field.startsWith("num") && typeof value === "number")
        merged[field as `num${string}`] = (merged[field as `num${string}`] ?? 0) + value;
    }
  }
  await writeFile(target, JSON.stringify(merged));
  await Promise.all(parts.map((part) => rm(part, { force: true })));
}

async function runSplit(args: readonly string[]): Promise<number> {
  const jsonTarget = args.find((arg) => arg.startsWith(jsonOutputFlag))?.slice(jsonOutputFlag.length);
  const withOutput = (suffix: string): string[] =>
    args.map((arg) => (jsonTarget !== undefined && arg.startsWith(jsonOutputFlag) ? `${jsonOutputFlag}${jsonTarget}.${suffix}` : arg));
  // A file filter may match nothing in one of the two runs: that run has nothing to say.
  const [mainExit, chaosExit] = await Promise.all([
    vitest([...mainProjects.flatMap((name) => ["--project", name]), "--passWithNoTests", ...withOutput("main")]),
    vitest(["--project", "chaos", "--passWithNoTests", ...withOutput("chaos")]),
  ]);
  if (jsonTarget !== undefined) await mergeReports(jsonTarget, [`${jsonTarget}.main`, `${jsonTarget}.chaos`]);
  return mainExit === 0 && chaosExit === 0 ? 0 : 1;
}

const args = process.argv.slice(2);
const runs = args.includes("--project") || args.some((arg) => arg.startsWith("--project=")) ? vitest(args) : runSplit(args);
const [types, testsExitCode] = await Promise.all([typecheck(), runs]);
process.stdout.write(types.output);
if (!types.ok) console.error("npm test: the type check failed");
process.exitCode = types.ok && testsExitCode === 0 ? 0 : 1;
