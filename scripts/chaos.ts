// `npm run chaos`: the chaos project at full scale (CHAOS_SCALE=full: the 1,000-transfer hold
// storm, the 30 s database outages with 200 sagas in flight, the long model-based run), then a
// table of what was injected and what broke. Exits non-zero when a test failed or any
// invariant was violated. Everything it starts (vitest, workerd, postgres) runs in one process
// group that is stopped on exit or Ctrl-C.
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type ChaosTally, renderChaosTable, type TestSummary, zeroTargets } from "./lib/chaos-table.ts";
import { groupAlive, stopGroup } from "./lib/process-group.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const stopGraceMs = 10_000;

interface VitestJson {
  numPassedTests: number;
  numFailedTests: number;
  numTotalTestSuites: number;
  testResults: { name: string }[];
}

async function runVitest(reportPath: string, resultsPath: string): Promise<{ exitCode: number; durationMs: number }> {
  const startedAtMs = Date.now();
  const child = spawn(
    path.join(root, "node_modules", ".bin", "vitest"),
    ["run", "--project", "chaos", "--silent=passed-only", "--reporter=default", "--reporter=json", `--outputFile.json=${resultsPath}`],
    {
      cwd: root,
      detached: true,
      stdio: "inherit",
      env: { ...process.env, CHAOS_SCALE: "full", CHAOS_REPORT: reportPath },
    },
  );
  const stop = (): void => {
    if (child.pid !== undefined && groupAlive(child.pid)) void stopGroup(child.pid, stopGraceMs).then(() => process.exit(130));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  const exitCode = await new Promise<number>((resolve) => child.once("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0))));
  // Vitest stops its workers and postgres itself; anything left in the group is stopped here.
  if (child.pid !== undefined && groupAlive(child.pid)) await stopGroup(child.pid, stopGraceMs);
  return { exitCode, durationMs: Date.now() - startedAtMs };
}

async function readJson<T>(file: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(file, "utf8")) as T;
  } catch {
    return null;
  }
}

const workDir = await mkdtemp(path.join(tmpdir(), "pix-chaos-"));
try {
  const reportPath = path.join(workDir, "tally.json");
  const resultsPath = path.join(workDir, "vitest.json");
  const { exitCode, durationMs } = await runVitest(reportPath, resultsPath);
  const tally = (await readJson<ChaosTally>(reportPath)) ?? { counters: {}, maxima: {}, injected: {} };
  const results = await readJson<VitestJson>(resultsPath);
  const tests: TestSummary = {
    passed: results?.numPassedTests ?? 0,
    failed: results?.numFailedTests ?? 0,
    files: results?.testResults.length ?? 0,
    durationMs,
  };
  const date = new Date().toISOString().slice(0, 10);
  console.log(`\n${renderChaosTable(tally, tests, { command: "npm run chaos", date })}\n`);
  const broken = zeroTargets(tally).filter(([, n]) => n > 0);
  for (const [name, n] of broken) console.error(`chaos: ${name} = ${n} (target 0)`);
  if (exitCode !== 0 || tests.failed > 0 || results === null)
    console.error(`chaos: vitest exited ${exitCode} with ${tests.failed} failed test(s)`);
  process.exitCode = exitCode !== 0 || tests.failed > 0 || results === null || broken.length > 0 ? 1 : 0;
} finally {
  await rm(workDir, { recursive: true, force: true });
}
