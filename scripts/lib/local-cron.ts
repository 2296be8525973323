// Cron triggers never fire under `wrangler dev`; this stands in for the every-minute cron of
// wrangler.toml so the stuck-saga sweeper (CONTRACT §5) also runs locally.

const requestTimeoutMs = 30_000;

export interface LocalCron {
  stop(): void;
}

export function startLocalCron(baseUrl: string, intervalMs: number, log: (line: string) => void): LocalCron {
  const url = `${baseUrl}/cdn-cgi/local/scheduled?cron=${encodeURIComponent("* * * * *")}`;
  let lastOutcome = "ok";
  const tick = async (): Promise<void> => {
    let outcome: string;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(requestTimeoutMs) });
      await response.body?.cancel();
      outcome = response.ok ? "ok" : `status ${response.status}`;
    } catch (error) {
      outcome = error instanceof Error ? error.message : String(error);
    }
    // One line per change of outcome, not one per minute.
    if (outcome !== lastOutcome) log(outcome === "ok" ? "scheduled handler ok again" : `scheduled handler failed: ${outcome}`);
    lastOutcome = outcome;
  };
  const timer = setInterval(() => void tick(), intervalMs);
  return { stop: () => clearInterval(timer) };
}
