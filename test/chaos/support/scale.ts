// How heavy a chaos scenario runs: `short` inside `npm test` (seconds), `full` under
// `npm run chaos` (CHAOS_SCALE=full, provided by the global setup).
import { inject } from "vitest";

export const chaosScale = inject("chaosScale");

export function scaled<T>(short: T, full: T): T {
  return chaosScale === "full" ? full : short;
}
