// What the numbers were measured on. Absolute rates only mean something next to this.
import { readFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import path from "node:path";
import pg from "pg";

export interface Machine {
  cores: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  postgres: string;
  workerd: string;
  wrangler: string;
  /** 1, 5 and 15 minute load averages when the bench began. */
  loadAverage: string;
}

function packageVersion(root: string, name: string): string {
  const manifest = JSON.parse(readFileSync(path.join(root, "node_modules", name, "package.json"), "utf8")) as { version?: string };
  return manifest.version ?? "unknown";
}

function cpuModel(): string {
  const line = readFileSync("/proc/cpuinfo", "utf8")
    .split("\n")
    .find((entry) => entry.startsWith("model name"));
  return line?.split(":")[1]?.trim() ?? cpus()[0]?.model ?? "unknown";
}

export async function describeMachine(root: string, databaseUrl: string): Promise<Machine> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let postgres: string;
  try {
    const { rows } = await client.query<{ version: string }>("SELECT current_setting('server_version') AS version");
    postgres = rows[0]?.version ?? "unknown";
  } finally {
    await client.end();
  }
  return {
    cores: cpus().length,
    cpuModel: cpuModel(),
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    postgres,
    workerd: packageVersion(root, "workerd"),
    wrangler: packageVersion(root, "wrangler"),
    loadAverage: loadavg()
      .map((load) => load.toFixed(2))
      .join(" "),
  };
}

export function formatMachine(machine: Machine): string {
  return [
    `machine: ${machine.cores} cores, ${machine.cpuModel}, ${machine.memoryGiB} GiB; load average at start ${machine.loadAverage}`,
    `versions: Node ${machine.node}, PostgreSQL ${machine.postgres}, workerd ${machine.workerd}, wrangler ${machine.wrangler}`,
  ].join("\n");
}
