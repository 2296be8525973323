// The Hono context of console routes: the Worker's bindings, and what the session guard sets.
import type { ConsoleSession } from "./session.ts";

export interface ConsoleEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    session: ConsoleSession;
    consoleKey: CryptoKey;
    /** This session's CSRF token, for the hidden field of every form that changes something. */
    csrfToken: string;
  };
}
