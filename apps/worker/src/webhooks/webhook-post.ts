import { webhookSignatureHeader } from '@starsgate/domain';

export interface WebhookAttemptResult {
  ok: boolean;
  /** The receiver's HTTP status; null when it did not answer in time (or at all). */
  status: number | null;
  error: string | null;
}

/**
 * One POST of an event: signed with every valid secret (one `v1` each), `Starsgate-Event-Id` for
 * deduplication. Only a 2xx within `timeoutMs` counts; redirects are not followed.
 */
export async function postWebhook(
  url: string,
  event: { id: string; body: string },
  secrets: readonly string[],
  timeoutMs: number,
  now = Date.now(),
): Promise<WebhookAttemptResult> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'starsgate-webhooks/1',
        'Starsgate-Event-Id': event.id,
        'Starsgate-Signature': webhookSignatureHeader(secrets, Math.floor(now / 1000), event.body),
      },
      body: event.body,
    });
    await response.body?.cancel().catch(() => undefined);
    const ok = response.status >= 200 && response.status < 300;
    return { ok, status: response.status, error: ok ? null : `HTTP ${response.status}` };
  } catch (error) {
    const timedOut = (error as Error).name === 'TimeoutError';
    return {
      ok: false,
      status: null,
      error: timedOut ? `no answer within ${timeoutMs} ms` : `request failed: ${(error as Error).message}`,
    };
  }
}
