import { sleep } from "../../src/lib/sleep.ts";

// Polls a health URL until it answers 200, the deadline passes, or `abort` fires.

const pollIntervalMs = 250;
const requestTimeoutMs = 2_000;

export async function waitHealthy(url: string, timeoutMs: number, abort: AbortSignal): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastProblem = "no answer yet";
  while (Date.now() < deadline) {
    abort.throwIfAborted();
    try {
      const response = await fetch(url, { signal: AbortSignal.any([abort, AbortSignal.timeout(requestTimeoutMs)]) });
      await response.body?.cancel();
      if (response.status === 200) return;
      lastProblem = `status ${response.status}`;
    } catch (error) {
      abort.throwIfAborted();
      lastProblem = error instanceof Error ? error.message : String(error);
    }
    await sleep(pollIntervalMs);
  }
  throw new Error(`${url} not healthy after ${timeoutMs} ms (${lastProblem})`);
}
