import { waitFor } from './wait-for';

/**
 * Polls `url` until it answers 2xx (each try bounded by 2 s). Throws after `timeoutMs`, or at once
 * when `gaveUp()` says the process behind it is gone.
 */
export async function waitForHttp(
  url: string,
  options: { timeoutMs?: number; gaveUp?: () => string | undefined } = {},
): Promise<Response> {
  let last = 'no answer yet';
  return waitFor(
    async () => {
      const reason = options.gaveUp?.();
      if (reason) throw new Error(`${url}: ${reason}`);
      try {
        const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
        if (response.ok) return response;
        last = `HTTP ${response.status}`;
        await response.body?.cancel();
      } catch (error) {
        last = error instanceof Error ? error.message : String(error);
      }
      return undefined;
    },
    { timeoutMs: options.timeoutMs ?? 60_000, intervalMs: 200, what: () => `${url} to answer 2xx (last: ${last})` },
  );
}
