import { sleep } from "../../src/lib/sleep.ts";

// Stopping a child that runs in its own process group (spawned with `detached: true`) together
// with everything it spawned: wrangler's launcher does not forward signals to its CLI process,
// and the CLI runs workerd, so signalling the leader alone would orphan them.

const groupPollMs = 100;

/** True while any process of the group exists (zombies included, until they are reaped). */
export function groupAlive(groupId: number): boolean {
  try {
    process.kill(-groupId, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(groupId: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-groupId, signal);
  } catch {
    // The group is already gone.
  }
}

async function waitForGroupExit(groupId: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (groupAlive(groupId)) {
    if (Date.now() >= deadline) return false;
    await sleep(groupPollMs);
  }
  return true;
}

/** SIGTERM to the whole group, then SIGKILL for whatever outlives `graceMs`. */
export async function stopGroup(groupId: number, graceMs: number): Promise<void> {
  signalGroup(groupId, "SIGTERM");
  if (await waitForGroupExit(groupId, graceMs)) return;
  signalGroup(groupId, "SIGKILL");
  await waitForGroupExit(groupId, graceMs);
}
