// Provider reconciliation in the console: the latest runs and open cases (a read), running a
// window and deciding a case (POSTs, CSRF-checked). The same functions as the /ops routes, so
// a run or a decision here is recorded with the operator's name exactly as one through the API.
import { type Context, Hono } from "hono";
import { z } from "zod";
import { uuidPattern } from "../../lib/ids.ts";
import { caseDecisions, caseNoteLengthMax } from "../../reconciliation/case-decisions.ts";
import { reconcileProvider } from "../../reconciliation/reconcile.ts";
import { decideCase, listCases, recentRuns } from "../../reconciliation/store.ts";
import { previousSaoPauloDay } from "../../reconciliation/window.ts";
import { providerReconciliationBody } from "../../reconciliation/window-request.ts";
import type { ConsoleEnv } from "../console-env.ts";
import { withConsoleDb } from "../data/db.ts";
import { operatorNote } from "../forms.ts";
import { requireCsrf } from "../guard.tsx";
import { page } from "../render.tsx";
import { ProviderReconciliationPage } from "../views/provider-reconciliation.tsx";
import { RefusalPage } from "../views/refusal.tsx";

const runsShown = 10;
const casesShown = 100;

const decisionForm = z.object({
  decision: z.enum(caseDecisions, { error: "Choose what became of the money." }),
  note: operatorNote(caseNoteLengthMax, "say what you checked or did"),
});

/** The wall clock's previous day, as the cron's: statements are in real time (docs/clock.md). */
function previousDayWindow(): { from: string; to: string } {
  const day = previousSaoPauloDay(Date.now());
  return { from: new Date(day.fromMs).toISOString(), to: new Date(day.toMs).toISOString() };
}

interface Shown {
  window?: { from: string; to: string };
  notice?: string;
  error?: string;
  status?: 200 | 400 | 409;
}

async function reconciliationPage(c: Context<ConsoleEnv>, shown: Shown = {}) {
  const { runs, cases } = await withConsoleDb(c.env, async (db) => ({
    runs: await recentRuns(db, runsShown),
    cases: await listCases(db, { open: true, limit: casesShown }),
  }));
  return page(
    c,
    <ProviderReconciliationPage
      runs={runs}
      cases={cases}
      window={shown.window ?? previousDayWindow()}
      csrfToken={c.var.csrfToken}
      notice={shown.notice}
      error={shown.error}
    />,
    shown.status ?? 200,
  );
}

function noticeOf(c: Context<ConsoleEnv>): string | undefined {
  const ran = c.req.query("ran");
  if (ran !== undefined && /^\d+$/.test(ran)) return `Run ${ran} finished: its result is below.`;
  const decided = c.req.query("decided");
  if (decided !== undefined && uuidPattern.test(decided)) return `Decision recorded for transfer ${decided}.`;
  return undefined;
}

export const providerReconciliationPages = new Hono<ConsoleEnv>();

providerReconciliationPages.get("/provider-reconciliation", (c) => {
  const notice = noticeOf(c);
  return reconciliationPage(c, notice === undefined ? {} : { notice });
});

providerReconciliationPages.post("/provider-reconciliation", requireCsrf(), async (c) => {
  const form = await c.req.parseBody();
  const typed = { from: String(form.from ?? "").trim(), to: String(form.to ?? "").trim() };
  const parsed = providerReconciliationBody.safeParse(typed);
  if (!parsed.success) {
    const why = parsed.error.issues.map((issue) => issue.message).join(" ");
    return reconciliationPage(c, { window: typed, status: 400, error: `Nothing ran: ${why}` });
  }
  const window = { fromMs: Date.parse(parsed.data.from), toMs: Date.parse(parsed.data.to) };
  const run = await reconcileProvider(c.env, c.executionCtx, window, c.var.session.actor);
  // Post, redirect, get: reloading the result page never runs the window again.
  return c.redirect(`/console/provider-reconciliation?ran=${encodeURIComponent(run.run_id)}`, 303);
});

providerReconciliationPages.post("/provider-reconciliation/cases/:id/decision", requireCsrf(), async (c) => {
  const id = c.req.param("id");
  const notFound = () =>
    page(
      c,
      <RefusalPage title="Case not found" message="No paid-after-release case is open for this transfer." csrfToken={c.var.csrfToken} />,
      404,
    );
  if (!uuidPattern.test(id)) return notFound();
  const parsed = decisionForm.safeParse(await c.req.parseBody());
  if (!parsed.success) {
    const why = parsed.error.issues.map((issue) => issue.message).join(" ");
    return reconciliationPage(c, { status: 400, error: `Nothing was recorded for transfer ${id}: ${why}` });
  }
  const result = await withConsoleDb(c.env, (db) => decideCase(db, id, c.var.session.actor, parsed.data.decision, parsed.data.note));
  if (result === "not_found") return notFound();
  if (result === "already_decided") return reconciliationPage(c, { status: 409, error: `Transfer ${id}'s case was already decided.` });
  return c.redirect(`/console/provider-reconciliation?decided=${id}`, 303);
});
