// The operator console under /console: server-rendered pages, no script. The login page and
// the stylesheet are public; everything else needs the signed session cookie, and every POST
// also its CSRF token.
import { Hono } from "hono";
import { log } from "../lib/log.ts";
import type { ConsoleEnv } from "./console-env.ts";
import { requireSession } from "./guard.tsx";
import { consoleHeaders } from "./headers.ts";
import { page } from "./render.tsx";
import { accountPages } from "./routes/accounts.tsx";
import { auditPages } from "./routes/audit.tsx";
import { contestationPages } from "./routes/contestations.tsx";
import { loginRoutes } from "./routes/login.tsx";
import { overviewPages } from "./routes/overview.tsx";
import { providerReconciliationPages } from "./routes/provider-reconciliation.tsx";
import { transferPages } from "./routes/transfers.tsx";
import { consoleCss } from "./styles.ts";
import { RefusalPage } from "./views/refusal.tsx";

export const consoleRoutes = new Hono<ConsoleEnv>();

consoleRoutes.use(consoleHeaders());

consoleRoutes.get("/styles.css", (c) =>
  c.body(consoleCss, 200, { "content-type": "text/css; charset=utf-8", "cache-control": "public, max-age=300" }),
);
consoleRoutes.route("/", loginRoutes);

const signedIn = new Hono<ConsoleEnv>();
signedIn.use(requireSession());
signedIn.route("/", overviewPages);
signedIn.route("/", transferPages);
signedIn.route("/", accountPages);
signedIn.route("/", auditPages);
signedIn.route("/", contestationPages);
signedIn.route("/", providerReconciliationPages);
consoleRoutes.route("/", signedIn);

// An operator gets a page, not problem+json; the details go to the log only.
consoleRoutes.onError((error, c) => {
  log(c, "console_error", { path: c.req.path, message: error instanceof Error ? error.message : String(error) }, "error");
  return page(
    c,
    <RefusalPage
      title="Something went wrong"
      message="The console could not finish this request. Quote the X-Request-Id header to support."
    />,
    500,
  );
});
