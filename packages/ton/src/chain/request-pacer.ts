/**
 * `foreground`: a purchase's own reads, which queue for their turn; `background`: reads that may
 * wait for spare capacity (the checkout watch), so they never delay a foreground one by more than
 * a turn or two (docs/security.md, attack 17).
 */
export type RequestPriority = 'foreground' | 'background';

/**
 * Paces the requests of one chain provider across every process that shares its rate limit
 * (docs/ton.md §9). The toncenter client asks for a turn before every HTTP attempt and reports
 * every 429 it receives, so one replica's 429 makes all of them wait.
 */
export interface RequestPacer {
  /**
   * Resolves when this request may be sent. Rejects when the turn is further away than the
   * pacer's bound or the shared state cannot be reached: the caller fails as a retriable outage.
   */
  acquire(priority?: RequestPriority): Promise<void>;
  /** The provider answered 429: nobody sends for `retryAfterMs` (or the pacer's own pause when absent). */
  rateLimited(retryAfterMs: number | undefined): Promise<void>;
}

/** The same shared rate, every turn taken at `background` priority. */
export function backgroundPacer(pacer: RequestPacer): RequestPacer {
  return {
    acquire: () => pacer.acquire('background'),
    rateLimited: (retryAfterMs) => pacer.rateLimited(retryAfterMs),
  };
}
