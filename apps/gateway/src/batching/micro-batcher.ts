export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

export interface MicroBatcherOptions {
  /** Items handed to one `run` call at most. */
  maxBatchSize: number;
  /**
   * Batches running at once. While all are busy, new items wait and join the next batch, so the
   * batch size grows with load instead of every request paying its own round trip.
   */
  maxInFlight: number;
}

/**
 * Collects the calls made during one event-loop turn (plus any that arrive while `maxInFlight`
 * batches are running) and hands them to `run` together: one round trip for many requests, and
 * no added delay when the process is idle. `run` settles each item on its own, so one bad item
 * fails only its own caller; if `run` itself throws, every item of that batch gets the error.
 */
export class MicroBatcher<I, O> {
  private pending: Array<{ item: I; resolve: (value: O) => void; reject: (error: unknown) => void }> = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly run: (items: readonly I[]) => Promise<ReadonlyArray<Settled<O>>>,
    private readonly options: MicroBatcherOptions,
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.options.maxInFlight || this.pending.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    while (this.pending.length > 0 && this.inFlight < this.options.maxInFlight) {
      const batch = this.pending.splice(0, this.options.maxBatchSize);
      this.inFlight += 1;
      Promise.resolve()
        .then(() => this.run(batch.map((entry) => entry.item)))
        .then(
          (results) => {
            batch.forEach((entry, index) => {
              const result = results[index];
              if (!result) entry.reject(new Error('batch returned no result for an item'));
              else if (result.ok) entry.resolve(result.value);
              else entry.reject(result.error);
            });
          },
          (error: unknown) => batch.forEach((entry) => entry.reject(error)),
        )
        .finally(() => {
          this.inFlight -= 1;
          this.schedule();
        });
    }
  }
}
