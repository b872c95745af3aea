/**
 * A re-entrant async mutex: one holder at a time, FIFO, and a holder's own nested calls (in the
 * same async context) pass straight through instead of deadlocking. Re-entrancy is what lets a
 * caller hold the lock across a whole purchase flow (`FragmentClient.exclusive`) while calling the
 * client's public methods, which each take the lock too.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export class ReentrantMutex {
  private readonly owner = new AsyncLocalStorage<ReentrantMutex>();
  private tail: Promise<void> = Promise.resolve();
  /** Holders and waiters (nested re-entrant calls not counted). */
  private pending = 0;

  /** Whether anyone holds the mutex or waits for it. */
  busy(): boolean {
    return this.pending > 0;
  }

  /** Whether the current async context holds this mutex. */
  held(): boolean {
    return this.owner.getStore() === this;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.held()) return task();
    let release!: () => void;
    const previous = this.tail;
    this.tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.pending += 1;
    try {
      await previous;
      return await this.owner.run(this, task);
    } finally {
      this.pending -= 1;
      release();
    }
  }
}
