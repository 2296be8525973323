// Pix limits follow the São Paulo clock (the daily cap resets at local midnight, the nighttime
// window is local time). The instant is always passed in, so tests drive the clock.
const saoPauloParts = new Intl.DateTimeFormat("en-CA", {
  timeZone: "America/Sao_Paulo",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

export interface LocalClock {
  /** The São Paulo calendar day, YYYY-MM-DD. */
  day: string;
  /** Minutes since São Paulo midnight, 0 to 1439. */
  minuteOfDay: number;
}

export function saoPauloClock(nowMs: number): LocalClock {
  const parts = Object.fromEntries(saoPauloParts.formatToParts(new Date(nowMs)).map((p) => [p.type, p.value]));
  return { day: `${parts.year}-${parts.month}-${parts.day}`, minuteOfDay: Number(parts.hour) * 60 + Number(parts.minute) };
}

/** The clock fields a transfer opens with: São Paulo's day and minute for the rules, and the instant for pending limit increases. */
export function localClockFields(nowMs: number): { localDay: string; localMinuteOfDay: number; nowMs: number } {
  const clock = saoPauloClock(nowMs);
  return { localDay: clock.day, localMinuteOfDay: clock.minuteOfDay, nowMs };
}
