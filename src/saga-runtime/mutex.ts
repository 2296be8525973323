// Serialises the saga object's advancement. Input gates do not cover outbound I/O, so while
// one step awaits Postgres or the provider, a webhook or an alarm could start another: every
// entry point runs through this queue instead.
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const next = this.tail.then(work, work);
    // The queue continues whatever this job's outcome; the caller still sees it.
    this.tail = next.catch(() => undefined);
    return next;
  }
}
