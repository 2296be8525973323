// What the tests need from wrangler.toml, read from the file itself so they follow its values.
import wranglerToml from "../../wrangler.toml?raw";

export interface RateLimitConfig {
  limit: number;
  periodSeconds: number;
}

/** The `simple` setting of the top-level `[[ratelimits]]` binding `name`. */
export function rateLimitConfig(name: string): RateLimitConfig {
  const blocks = wranglerToml.split(/^\[\[ratelimits\]\]$/m).slice(1);
  for (const block of blocks) {
    const body = block.split(/^\[/m)[0] ?? "";
    if (!new RegExp(`^name\\s*=\\s*"${name}"`, "m").test(body)) continue;
    const simple = /^simple\s*=\s*\{\s*limit\s*=\s*(\d+)\s*,\s*period\s*=\s*(\d+)\s*\}/m.exec(body);
    if (simple?.[1] === undefined || simple[2] === undefined) break;
    return { limit: Number(simple[1]), periodSeconds: Number(simple[2]) };
  }
  throw new Error(`wrangler.toml has no [[ratelimits]] binding ${name} with simple = { limit, period }`);
}

/** Each vars table of wrangler.toml (`vars`, `env.local.vars`, ...) with its names and values. */
export function varsTables(): Map<string, Map<string, string>> {
  const tables = new Map<string, Map<string, string>>();
  let current: Map<string, string> | null = null;
  for (const line of wranglerToml.split("\n")) {
    const header = /^\[([^\]]+)\]$/.exec(line.trim());
    if (header?.[1] !== undefined) {
      current = header[1] === "vars" || /^env\.[\w-]+\.vars$/.test(header[1]) ? new Map() : null;
      if (current !== null) tables.set(header[1], current);
      continue;
    }
    const entry = /^([A-Z][A-Z0-9_]*)\s*=\s*"([^"]*)"/.exec(line);
    if (current !== null && entry?.[1] !== undefined && entry[2] !== undefined) current.set(entry[1], entry[2]);
  }
  return tables;
}
