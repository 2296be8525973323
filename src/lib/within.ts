// Waiting on a promise for at most a while, without cancelling it: the caller stops waiting and
// the work may still finish (a loopback fetch, a shared token request someone else awaits).

/** The promise's value, or null once `waitMs` passed first. */
export async function settledWithin<T>(promise: Promise<T>, waitMs: number): Promise<T | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), waitMs);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
