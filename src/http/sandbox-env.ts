// The Hono context of the /sandbox routes: the bindings, and the configuration the guard in
// sandbox.ts has already found valid with the sandbox on.
import type { Config } from "../config/parse.ts";

export type SandboxEnv = { Bindings: Env; Variables: { config: Readonly<Config> } };
