// SandboxProvider: the sandbox PSP's state (filled in by the saga issue).
import { DurableObject } from "cloudflare:workers";
import type { Env } from "../../env.ts";

export class SandboxProvider extends DurableObject<Env> {}
