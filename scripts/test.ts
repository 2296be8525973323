// `npm test`: every vitest project in one run (one database, one JSON report when asked for),
// with the type check beside it rather than before it: the tests spend much of their time
// waiting on the network and timers, which leaves a core for tsc. Arguments go to vitest, so
// `npm test -- --reporter=json --outputFile.json=...` reaches it. Fails when either fails; the
// type errors are printed after vitest's report.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { typecheck } from "./lib/typecheck.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

function vitest(args: readonly string[]): Promise<number> {
  const child = spawn(path.join(root, "node_modules", ".bin", "vitest"), ["run", ...args], { cwd: root, stdio: "inherit" });
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

const [types, testsExitCode] = await Promise.all([typecheck(), vitest(process.argv.slice(2))]);
process.stdout.write(types.output);
if (!types.ok) console.error("npm test: the type check failed");
process.exitCode = types.ok && testsExitCode === 0 ? 0 : 1;
