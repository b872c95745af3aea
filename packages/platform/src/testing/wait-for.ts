export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface WaitForOptions {
  /** Give up after this long (default 10 s). */
  timeoutMs?: number;
  /** The pause between two reads (default 50 ms). */
  intervalMs?: number;
  /** What is awaited, for the timeout's message; a function is read when the time is up, so it can show the last state. */
  what?: string | (() => string);
}

type Found<T> = Exclude<T, undefined | null | false>;

/**
 * Reads `read` until it yields something other than undefined, null or false, and returns that.
 * Throws once `timeoutMs` has passed (and at once when `read` throws).
 */
export async function waitFor<T>(read: () => T | Promise<T>, options: WaitForOptions = {}): Promise<Found<T>> {
  const { timeoutMs = 10_000, intervalMs = 50, what = 'the condition' } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined && value !== null && value !== false) return value as Found<T>;
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'function' ? what() : what}`);
    }
    await sleep(intervalMs);
  }
}
