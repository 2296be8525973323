// The account page, the review queue, scheduled transfers and reconciliation: reads, plus
// running reconciliation.
import { type Context, Hono } from "hono";
import { z } from "zod";
import { recordAction } from "../../audit/operator-writes.ts";
import { businessNowMs } from "../../clock/business-time.ts";
import { configuredOrThrow } from "../../config/isolate.ts";
import { accountIdSchema } from "../../contract/schemas.ts";
import { reconcile } from "../../ledger/ledger.ts";
import type { ConsoleEnv } from "../console-env.ts";
import { readAccount } from "../data/account.ts";
import { readAccountLimits } from "../data/account-limits.ts";
import { listRowsMax } from "../data/bounded-list.ts";
import { withConsoleDb } from "../data/db.ts";
import { readDevices } from "../data/devices.ts";
import { reviewQueue } from "../data/queue.ts";
import { scheduledTransfers } from "../data/scheduled.ts";
import { requireCsrf } from "../guard.tsx";
import { page } from "../render.tsx";
import { AccountPage } from "../views/account.tsx";
import { QueuePage } from "../views/queue.tsx";
import { ReconciliationPage } from "../views/reconciliation.tsx";
import { RefusalPage } from "../views/refusal.tsx";
import { ScheduledPage } from "../views/scheduled.tsx";

export const accountPages = new Hono<ConsoleEnv>();

accountPages.get("/accounts/:id", async (c) => {
  const accountId = c.req.param("id");
  const config = configuredOrThrow(c.env);
  const { rules } = config;
  const { account, limits, devices } = await withConsoleDb(c.env, async (db) => {
    // A device's state is what the cap would judge now: pending or registered in business time.
    const nowMs = await businessNowMs(db, config);
    return {
      account: await readAccount(db, accountId),
      limits: await readAccountLimits(db, accountId, { businessNowMs: nowMs, wallNowMs: Date.now() }, rules),
      devices: await readDevices(db, accountId, nowMs),
    };
  });
  if (!account || !limits)
    return page(c, <RefusalPage title="Account not found" message="No customer account has this id." csrfToken={c.var.csrfToken} />, 404);
  return page(
    c,
    <AccountPage account={account} limits={limits} devices={devices} deviceRules={rules.device_rules} csrfToken={c.var.csrfToken} />,
  );
});

accountPages.get("/queue", async (c) => {
  const queue = await withConsoleDb(c.env, (db) => reviewQueue(db));
  return page(c, <QueuePage queue={queue} csrfToken={c.var.csrfToken} nowMs={Date.now()} />);
});

/** The Scheduled page lists 200 at most: past that, an operator narrows it to one account. */
const scheduledQuery = z.strictObject({ account: accountIdSchema.optional() });

accountPages.get("/scheduled", async (c) => {
  const parsed = scheduledQuery.safeParse(c.req.query());
  if (!parsed.success) {
    const message = "That filter is not valid: account is an account id (1 to 64 of A-Z, a-z, 0-9, _ and -).";
    return page(c, <RefusalPage title="Scheduled transfers" message={message} csrfToken={c.var.csrfToken} />, 400);
  }
  const accountId = parsed.data.account ?? null;
  const list = await withConsoleDb(c.env, (db) => scheduledTransfers(db, listRowsMax, [accountId]));
  return page(c, <ScheduledPage list={list} accountId={accountId} csrfToken={c.var.csrfToken} />);
});

/**
 * Reconciliation is one read-only query, so the page runs it on every view rather than keep
 * the last result somewhere; the button (a POST, CSRF-checked like every action) runs it again.
 */
async function reconciliationPage(c: Context<ConsoleEnv>, run: boolean) {
  const report = await withConsoleDb(c.env, async (db) => {
    const result = await reconcile(db);
    // A run the operator asked for is an action on record; a page view is a read.
    if (run) {
      const details = { kind: "ledger", ok: result.ok, accounts_checked: result.accounts_checked, divergences: result.divergences.length };
      await recordAction(db, { actor: c.var.session.actor, action: "reconciliation_run", accountId: null, details });
    }
    return result;
  });
  return page(c, <ReconciliationPage report={report} ranAt={new Date().toISOString()} csrfToken={c.var.csrfToken} />);
}

accountPages.get("/reconciliation", (c) => reconciliationPage(c, false));
accountPages.post("/reconciliation", requireCsrf(), (c) => reconciliationPage(c, true));
