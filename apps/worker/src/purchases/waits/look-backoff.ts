/** How much later each look that shows nothing new comes than the one before. */
export const LOOK_BACKOFF_FACTOR = 1.5;

/**
 * The spacing of a shared look at an upstream for parked purchases: `baseMs` at first, growing
 * LOOK_BACKOFF_FACTOR times with every look that shows nothing new, up to `maxMs`; `reset` when
 * something happens (a purchase starts waiting, an answer arrives). Fragment delivers 30 to 60 s
 * after payment, minutes when the network is slow: looking every second all that time read the
 * same history again and again.
 */
export class LookBackoff {
  private current: number;

  constructor(
    private readonly baseMs: number,
    private readonly maxMs: number,
  ) {
    this.current = baseMs;
  }

  /** The wait before the next look, after a look that showed nothing new; the one after grows. */
  next(): number {
    const wait = this.current;
    this.current = Math.min(this.maxMs, Math.max(this.baseMs, Math.round(this.current * LOOK_BACKOFF_FACTOR)));
    return wait;
  }

  /** The wait the next look would get, without growing it. */
  peek(): number {
    return this.current;
  }

  reset(): void {
    this.current = this.baseMs;
  }
}
