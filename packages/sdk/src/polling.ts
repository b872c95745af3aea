import { WaitTimeoutError } from './core/errors.js';
import { isTerminal, outcomeOf } from './status.js';
import type { Checkout, Outcome, Purchase, WaitOptions } from './types.js';

export const DEFAULT_WAIT_TIMEOUT_MS = 300_000;
export const DEFAULT_POLL_INTERVAL_MS = 2_000;

/** Polls `fetch` until `done`, reporting each new status once; throws WaitTimeoutError at the deadline. */
export async function poll<T extends Purchase | Checkout>(
  what: string,
  fetch: () => Promise<T>,
  sleep: (ms: number) => Promise<void>,
  options: WaitOptions<T> & { done?: (current: T) => boolean } = {},
): Promise<T & Outcome> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
  const interval = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  const done = options.done ?? ((current: T) => isTerminal(current.status));
  const deadline = Date.now() + timeoutMs;
  let lastStatus: string | undefined;
  for (;;) {
    const current = await fetch();
    if (current.status !== lastStatus) options.onUpdate?.(current);
    lastStatus = current.status;
    if (done(current)) return { ...current, ...outcomeOf(current) };
    const remaining = deadline - Date.now();
    if (remaining <= 0)
      throw new WaitTimeoutError(
        `${what} still ${current.status} after ${timeoutMs} ms; it goes on by itself: keep polling the same id, never create a replacement.`,
        current,
      );
    await sleep(Math.min(interval, remaining));
  }
}
