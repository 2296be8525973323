// Transfers opened or changed outside their own object (a recurrence's occurrences: opened by the
// request that created it or by the run before them, canceled with their recurrence) are woken
// through their object's `adopt`: it reads the record, announces its events and arms the alarm.
// Beside the work that opened them, never in its way: a wake that is lost leaves the record
// right, and the sweeper finds the transfer once its check or its event is overdue.
import { logTransfer } from "../lib/log.ts";

export interface WakeRuntime {
  waitUntil(promise: Promise<unknown>): void;
}

export async function wakeTransfers(env: Env, transferIds: readonly string[]): Promise<void> {
  const results = await Promise.allSettled(transferIds.map((id) => env.TRANSFER_SAGA.getByName(id).adopt()));
  results.forEach((result, i) => {
    const outcome = result.status === "fulfilled" ? result.value.outcome : "failed";
    if (outcome !== "adopted") logTransfer(transferIds[i] ?? null, "wake_opened", { outcome }, "warn");
  });
}

export function wakeOpenedLater(env: Env, runtime: WakeRuntime, transferIds: readonly string[]): void {
  if (transferIds.length > 0) runtime.waitUntil(wakeTransfers(env, transferIds));
}
