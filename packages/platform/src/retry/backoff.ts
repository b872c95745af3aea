/** Capped exponential backoff with 50–100 % jitter: purchase step retries and webhook redeliveries. */
export function backoffMs(attempt: number, baseMs: number, maxMs: number): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 20));
  return Math.round(ceiling * (0.5 + Math.random() * 0.5));
}
