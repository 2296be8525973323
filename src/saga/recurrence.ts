// Recurring scheduled transfers (Pix Agendado recorrente, CONTRACT §2): which dates a
// recurrence's occurrences fall on. Pure: a date and a number in, a date out.
//
// Every date is computed from the first one (the anchor), never from the previous occurrence,
// so a monthly recurrence on the 31st comes back to the 31st after a shorter month:
// Jan 31 -> Feb 28 -> Mar 31, not Jan 31 -> Feb 28 -> Mar 28.
import { dayNumber } from "./schedule.ts";

export const recurrenceFrequencies = ["weekly", "monthly"] as const;
export type RecurrenceFrequency = (typeof recurrenceFrequencies)[number];

export const recurrenceStates = ["active", "finished", "canceled"] as const;
export type RecurrenceState = (typeof recurrenceStates)[number];

/** A recurrence has 2 to 60 occurrences (CONTRACT §2): five years of a monthly payment at most. */
export const occurrenceCountMin = 2;
export const occurrenceCountMax = 60;

const dayMs = 86_400_000;
const daysPerWeek = 7;

function formatUtcDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The last day of a month (monthIndex 0 to 11, any year). */
function lastDayOfMonth(year: number, monthIndex: number): number {
  return new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();
}

/**
 * The date of occurrence `occurrence` (1 is `firstDate` itself): weekly, 7 days apart; monthly,
 * the anchor's day of each month after, or that month's last day when the month is shorter.
 */
export function occurrenceDate(firstDate: string, frequency: RecurrenceFrequency, occurrence: number): string {
  const anchorDays = dayNumber(firstDate);
  if (anchorDays === null) throw new Error(`not a calendar date: ${firstDate}`);
  if (!Number.isInteger(occurrence) || occurrence < 1) throw new Error(`not an occurrence number: ${occurrence}`);
  const steps = occurrence - 1;
  if (frequency === "weekly") return formatUtcDate(new Date((anchorDays + steps * daysPerWeek) * dayMs));
  const anchor = new Date(anchorDays * dayMs);
  const monthIndex = anchor.getUTCMonth() + steps;
  const year = anchor.getUTCFullYear() + Math.floor(monthIndex / 12);
  const month = monthIndex % 12;
  const day = Math.min(anchor.getUTCDate(), lastDayOfMonth(year, month));
  return formatUtcDate(new Date(Date.UTC(year, month, day)));
}
