/**
 * Emulated block clock: calls `produce` every `intervalMs` (default 400 ms, mainnet's block time
 * since Catchain 2.0), on a fixed cadence: the time a block takes to emulate does not stretch the
 * interval, as it would not on a real chain. Ticks never overlap; a block that takes longer than
 * the interval is followed by the next one at once instead of queueing more.
 */
export class BlockProducer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;

  constructor(
    private readonly intervalMs: number,
    private readonly produce: () => Promise<void>,
    private readonly onError: (err: unknown) => void = (err) => console.error('[sandbox] block failed', err),
  ) {
    if (!(intervalMs > 0)) throw new Error('block interval must be > 0 ms');
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(performance.now() + this.intervalMs);
  }

  private schedule(dueAt: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(
      () => {
        this.running = this.produce()
          .catch(this.onError)
          .finally(() => {
            this.running = undefined;
            this.schedule(Math.max(dueAt + this.intervalMs, performance.now()));
          });
      },
      Math.max(0, dueAt - performance.now()),
    );
  }

  /** Stops the clock and waits for a block in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
