/**
 * Emulated block clock: calls `produce` every `intervalMs` (default 400 ms, mainnet's block time
 * since Catchain 2.0). Ticks never overlap; a slow block delays the next one instead of queueing.
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
    this.schedule();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.produce()
        .catch(this.onError)
        .finally(() => {
          this.running = undefined;
          this.schedule();
        });
    }, this.intervalMs);
  }

  /** Stops the clock and waits for a block in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
