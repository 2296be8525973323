// The stuck-saga sweeper: in-flight sagas whose next check is more than a minute overdue get
// poked, in bounded batches. It catches what alarms let fall through (an object whose alarm
// was lost, a saga created while its object was unreachable). Running every minute whatever the
// traffic, it also observes the provider's health (the degraded-PSP alert). A scheduled run is
// due by business time: after a test clock advance, its object's alarm (set under the offset
// before) is late, so the advance's sweep pokes every scheduled run that came, without the
// minute's grace.
import { noticeProviderHealth } from "./alerts/provider-degraded.ts";
import type { AlertRuntime } from "./alerts/schedule.ts";
import { businessNowMs } from "./clock/business-time.ts";
import { configOf } from "./config/isolate.ts";
import { httpDb } from "./db/http.ts";
import { dbSettings } from "./db/settings.ts";
import { transfersWithOverdueEvents } from "./events/store.ts";
import { logEvent } from "./lib/log.ts";
import { transfersWithDueContestations } from "./transfers/contestation-reads.ts";
import { dueScheduledTransferIds } from "./transfers/scheduled.ts";
import { overdueTransferIds } from "./transfers/store.ts";

export const sweepOverdueMs = 60_000;
export const sweepBatchMax = 100;
/** Pokes in flight at once: each holds a provider call, so keep the burst modest. */
export const sweepConcurrencyMax = 10;

/**
 * How overdue a scheduled run must be before the sweep pokes it: the cron and operators leave
 * its alarm a minute, as for every check; an advance of the test clock leaves nothing, since the
 * alarms were set under the offset before it.
 */
export type SweepCause = "overdue" | "clock_advanced";

/**
 * `runtime`: where an alert's delivery runs beside the sweep (the cron's or the request's waitUntil).
 * `cause`: how overdue a scheduled run must be (SweepCause).
 */
export async function sweep(env: Env, runtime: AlertRuntime, cause: SweepCause = "overdue"): Promise<{ poked: number }> {
  // Fails closed like the routes: a misconfigured Worker reads nothing and pokes nothing.
  const config = configOf(env);
  if (!config.ok) {
    logEvent("sweep_refused_misconfigured", { problems: config.problems.map((p) => p.variable) }, "error");
    return { poked: 0 };
  }
  const delivering = config.config.events.delivery === "on";
  // Four reads, each one statement (and business time's with the sandbox on): Neon's HTTP path.
  const db = httpDb(dbSettings(env));
  const scheduledOverdueMs = cause === "clock_advanced" ? 0 : sweepOverdueMs;
  const scheduledIds = await dueScheduledTransferIds(db, config.config, scheduledOverdueMs, sweepBatchMax);
  const ids = [...scheduledIds, ...(await overdueTransferIds(db, sweepOverdueMs, sweepBatchMax))];
  // Undelivered events whose object did not wake (a lost alarm, a crash after the commit).
  const eventIds = delivering ? await transfersWithOverdueEvents(db, sweepOverdueMs, sweepBatchMax) : [];
  // Contestations whose check is overdue, or whose deadline passed (business time) unalerted:
  // after an advance of the test clock, this is what raises their alert within seconds.
  const businessNow = await businessNowMs(db, config.config);
  const contestedIds = await transfersWithDueContestations(db, sweepOverdueMs, businessNow, sweepBatchMax);
  const poked = await inBatches(ids, (id) => env.TRANSFER_SAGA.getByName(id).poke("sweeper"));
  const eventsPoked = await inBatches(eventIds, (id) => env.TRANSFER_SAGA.getByName(id).deliverEvents());
  const contestedPoked = await inBatches(contestedIds, (id) => env.TRANSFER_SAGA.getByName(id).contestationsDue());
  logEvent("sweep", {
    cause,
    scheduled_due: scheduledIds.length,
    overdue: ids.length,
    poked,
    events_overdue: eventIds.length,
    events_poked: eventsPoked,
    contestations_due: contestedIds.length,
    contestations_poked: contestedPoked,
  });
  await noticeProviderHealth(env, runtime, db);
  return { poked: poked + eventsPoked + contestedPoked };
}

async function inBatches(ids: readonly string[], work: (id: string) => Promise<unknown>): Promise<number> {
  let done = 0;
  for (let i = 0; i < ids.length; i += sweepConcurrencyMax) {
    const results = await Promise.allSettled(ids.slice(i, i + sweepConcurrencyMax).map(work));
    done += results.filter((r) => r.status === "fulfilled").length;
  }
  return done;
}
