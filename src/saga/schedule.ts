// Scheduled transfers (Pix Agendado): when a scheduled transfer runs, and which dates a client
// may choose. Pure: the instant and the São Paulo "today" are always passed in.
//
// A scheduled transfer runs in the early hours of its São Paulo day (00:00 to 06:00), spread
// over those six hours by its id so a month's schedules do not all start at 00:00:00; a run that
// finds too little available tries once more in the evening (18:00 to 21:00, spread the same
// way), then ends. An occurrence of a recurring transfer is not retried under its own id: one
// retry transfer of its own runs from 18:00 to 20:00 (src/saga/recurrence.ts). The slots are a function of the date and the id alone, so an object that
// restarts, or the sweeper, finds exactly the slot that was recorded.
import { saoPauloClock } from "../lib/sao-paulo-clock.ts";

const hourMs = 3_600_000;
const minuteMs = 60_000;
const dayMs = 24 * hourMs;

/** The early run falls in [00:00, 06:00) of the day, the evening retry in [18:00, 21:00). */
export const earlyRunWindow = { startsAtHour: 0, lengthMs: 6 * hourMs } as const;
export const eveningRunWindow = { startsAtHour: 18, lengthMs: 3 * hourMs } as const;
/** A recurring occurrence's retry transfer runs in [18:00, 20:00) (CONTRACT §2, "Recurring transfers"). */
export const recurringRetryWindow = { startsAtHour: 18, lengthMs: 2 * hourMs } as const;
const runWindows = { early: earlyRunWindow, evening: eveningRunWindow, recurring_retry: recurringRetryWindow } as const;
export type ScheduledRun = keyof typeof runWindows;
/** The furthest a client may schedule, in days after today (São Paulo). */
export const scheduleDaysAheadMax = 365;

/** FNV-1a, 32 bits: a stable, well-spread number from a transfer id (no security role). */
function spreadOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** A YYYY-MM-DD calendar date as days since 1970-01-01, or null when it names no real date. */
export function dayNumber(day: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const utcMs = Date.UTC(year, month - 1, date);
  const back = new Date(utcMs);
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== date) return null;
  return utcMs / dayMs;
}

/**
 * The instant São Paulo's day begins. The offset is read from the time zone at noon of that day
 * (Brazil has had no daylight saving since 2019, but the zone's history stays right).
 */
export function saoPauloMidnightMs(day: string): number {
  const days = dayNumber(day);
  if (days === null) throw new Error(`not a calendar date: ${day}`);
  const noonUtcMs = days * dayMs + 12 * hourMs;
  const offsetMs = saoPauloClock(noonUtcMs).minuteOfDay * minuteMs - 12 * hourMs;
  return days * dayMs - offsetMs;
}

/** When a scheduled transfer runs on its day: its early slot, its evening retry, or a recurring occurrence's retry. */
export function scheduledRunAtMs(scheduledFor: string, transferId: string, run: ScheduledRun): number {
  const window = runWindows[run];
  const spreadMs = spreadOf(`${run}:${transferId}`) % window.lengthMs;
  return saoPauloMidnightMs(scheduledFor) + window.startsAtHour * hourMs + spreadMs;
}

/** The instant a run's window closes on its day: a run decided later no longer fits it. */
export function runWindowEndsAtMs(scheduledFor: string, run: ScheduledRun): number {
  const window = runWindows[run];
  return saoPauloMidnightMs(scheduledFor) + window.startsAtHour * hourMs + window.lengthMs;
}

/** Why a client's `scheduled_for` cannot be taken, or null: a real date after today, at most a year on. */
export function scheduleRefusal(scheduledFor: string, today: string): string | null {
  const chosen = dayNumber(scheduledFor);
  const now = dayNumber(today);
  if (chosen === null || now === null) return "must be a calendar date, YYYY-MM-DD";
  if (chosen <= now) return `must be after today (${today}, São Paulo)`;
  if (chosen - now > scheduleDaysAheadMax) return `must be at most ${scheduleDaysAheadMax} days after today (${today}, São Paulo)`;
  return null;
}
