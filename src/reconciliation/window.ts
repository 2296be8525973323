// Reconciliation windows: the daily run covers the previous São Paulo day, midnight to midnight
// local time. The offset comes from the time zone database (Intl, America/Sao_Paulo), never a
// hard-coded -03:00: Brazil has changed its clocks before. The instant is always passed in.
import { saoPauloClock } from "../lib/sao-paulo-clock.ts";

export interface Window {
  fromMs: number;
  toMs: number;
}

const minuteMs = 60_000;
const dayMs = 24 * 60 * minuteMs;

function utcMidnightOf(day: string): number {
  const [year, month, date] = day.split("-").map(Number);
  return Date.UTC(year ?? 0, (month ?? 1) - 1, date ?? 1);
}

/** São Paulo's offset from UTC at an instant, in ms (local wall time minus UTC). */
function offsetMsAt(atMs: number): number {
  const clock = saoPauloClock(atMs);
  const wallMs = utcMidnightOf(clock.day) + clock.minuteOfDay * minuteMs;
  return wallMs - Math.floor(atMs / minuteMs) * minuteMs;
}

/** The first instant of São Paulo's `day` (YYYY-MM-DD). */
export function saoPauloMidnightMs(day: string): number {
  const wallMs = utcMidnightOf(day);
  // The offset before midnight gives a guess; the offset at the guess corrects it when the
  // offset changes that night. A midnight the clocks skipped (summer time began at 00:00)
  // lands on the day before: the day then began at the guess, the first instant after the jump.
  const guessMs = wallMs - offsetMsAt(wallMs);
  const correctedMs = wallMs - offsetMsAt(guessMs);
  return saoPauloClock(correctedMs).day === day ? correctedMs : guessMs;
}

/** The day before `day`, as a calendar date. */
function dayBefore(day: string): string {
  return new Date(utcMidnightOf(day) - dayMs).toISOString().slice(0, 10);
}

/** The São Paulo day before the one `nowMs` falls in: what the daily cron reconciles. */
export function previousSaoPauloDay(nowMs: number): Window & { day: string } {
  const today = saoPauloClock(nowMs).day;
  const day = dayBefore(today);
  return { day, fromMs: saoPauloMidnightMs(day), toMs: saoPauloMidnightMs(today) };
}
