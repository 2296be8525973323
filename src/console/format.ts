// How the console writes money, times, durations and counts. Amounts stay integer centavos until here.

/** 123456 -> "R$ 1.234,56" (Brazilian grouping); negative amounts get a leading minus sign. */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? "−" : "";
  const absolute = Math.abs(cents);
  const reais = Math.floor(absolute / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  const centavos = (absolute % 100).toString().padStart(2, "0");
  return `${sign}R$ ${reais},${centavos}`;
}

/** "2026-11-20T14:03:05.123Z" -> "2026-11-20 14:03:05 UTC": exact, and the same for every operator. */
export function formatTime(rfc3339: string | null): string {
  if (rfc3339 === null) return "—";
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(rfc3339);
  return match ? `${match[1]} ${match[2]} UTC` : rfc3339;
}

/** A duration for humans, two units at most: "45 s", "12 min 5 s", "3 h 20 min", "2 d 4 h". */
export function formatDuration(durationMs: number): string {
  const seconds = Math.max(0, Math.floor(durationMs / 1000));
  const units: [number, string][] = [
    [86_400, "d"],
    [3_600, "h"],
    [60, "min"],
    [1, "s"],
  ];
  const parts: string[] = [];
  let rest = seconds;
  for (const [size, name] of units) {
    if (parts.length === 2) break;
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0 || (parts.length > 0 && size > 1)) parts.push(`${count} ${name}`);
  }
  return parts.length === 0 ? "0 s" : parts.join(" ");
}

/** 1 -> "1 send", 3 -> "3 sends": English plurals of the console's own nouns (all take an s). */
export function formatCount(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** A window of whole minutes as the home's selector names it: "15 min", "1 h", "24 h", "90 min". */
export function formatWindow(minutes: number): string {
  return minutes % 60 === 0 ? `${minutes / 60} h` : `${minutes} min`;
}
