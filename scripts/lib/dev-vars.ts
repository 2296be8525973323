// The local secrets file (.dev.vars): created from the committed example on first start, and
// read by helper scripts (the demo) that need the same secrets as the running Worker.
import { copyFile, readFile } from "node:fs/promises";
import path from "node:path";

export const devVarsPath = (root: string): string => path.join(root, ".dev.vars");

/** Copies .dev.vars.example to .dev.vars unless it exists; true when it created the file. */
export async function ensureDevVars(root: string): Promise<boolean> {
  try {
    // COPYFILE_EXCL: never overwrite secrets someone edited by hand.
    await copyFile(path.join(root, ".dev.vars.example"), devVarsPath(root), 1);
    return true;
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "EEXIST") return false;
    throw error;
  }
}

/** Parses the dotenv subset .dev.vars uses: KEY=value, KEY="value" or KEY='value', # comments. */
export function parseDevVars(text: string): Map<string, string> {
  const vars = new Map<string, string>();
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line === "" || line.startsWith("#")) continue;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!match?.[1]) continue;
    vars.set(match[1], unquote(match[2] ?? ""));
  }
  return vars;
}

function unquote(value: string): string {
  const quote = value[0];
  if ((quote === '"' || quote === "'") && value.length >= 2 && value.endsWith(quote)) return value.slice(1, -1);
  // Unquoted values may carry a trailing comment.
  return value.replace(/\s+#.*$/, "");
}

export async function readDevVars(root: string): Promise<Map<string, string>> {
  return parseDevVars(await readFile(devVarsPath(root), "utf8"));
}
