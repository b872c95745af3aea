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
  acquire(): Promise<void>;
  /** The provider answered 429: nobody sends for `retryAfterMs` (or the pacer's own pause when absent). */
  rateLimited(retryAfterMs: number | undefined): Promise<void>;
}
