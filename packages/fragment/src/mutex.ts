/**
 * An async mutex: one holder at a time, FIFO. Not re-entrant: a holder that needs to call code
 * which takes the same mutex passes it a view that skips it (`FragmentClient.exclusive`), rather
 * than the mutex telling holders apart by async context, which would tax every promise.
 */
export class Mutex {
  private tail: Promise<void> = Promise.resolve();
  /** Holders and waiters. */
  private pending = 0;

  /** Whether anyone holds the mutex or waits for it. */
  busy(): boolean {
    return this.pending > 0;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    let release!: () => void;
    const previous = this.tail;
    this.tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.pending += 1;
    try {
      await previous;
      return await task();
    } finally {
      this.pending -= 1;
      release();
    }
  }
}
