// Adds up what CI ran: the vitest JSON report plus the "N passed, M failed" lines the script
// suites print, so the run ends with one honest total.
import { readFile } from "node:fs/promises";

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
}

const [vitestJsonPath, ...logPaths] = process.argv.slice(2);
if (!vitestJsonPath) throw new Error("usage: ci-summary <vitest.json> [suite logs...]");
const report = JSON.parse(await readFile(vitestJsonPath, "utf8")) as VitestReport;
let passed = report.numPassedTests;
let failed = report.numFailedTests;
for (const path of logPaths) {
  const lines = (await readFile(path, "utf8")).split("\n");
  const total = lines.map((line) => /^(\d+) passed, (\d+) failed$/.exec(line.trim())).findLast((m) => m !== null);
  if (!total) throw new Error(`${path} has no "N passed, M failed" line`);
  passed += Number(total[1]);
  failed += Number(total[2]);
}
console.log(`${passed} passed, ${failed} failed`);
// A runner that reports failures but exits 0 must not make CI green.
if (failed > 0) process.exitCode = 1;
