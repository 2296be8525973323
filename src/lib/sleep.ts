// A pause, for retries with backoff and for tools and tests that poll: the same one in the
// Worker, in workerd tests and in Node scripts.
export function sleep(delayMs: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, delayMs));
}
