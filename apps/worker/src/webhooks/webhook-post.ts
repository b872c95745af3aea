import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { webhookSignatureHeader } from '@starsgate/domain';
import {
  pinnedLookup,
  resolveWebhookAddress,
  WebhookAddressError,
  type PrivateAddressAllowance,
} from '@starsgate/platform';

export interface WebhookAttemptResult {
  ok: boolean;
  /** The receiver's HTTP status; null when it did not answer in time (or at all). */
  status: number | null;
  /**
   * A coarse class, never the network error's text (which would tell whoever registered the URL
   * what lies behind it): `HTTP <status>`, `timeout`, `dns_failed`, `address_not_allowed`,
   * `connection_refused`, `tls_failed` or `connection_failed`.
   */
  error: string | null;
}

function errorClass(error: NodeJS.ErrnoException): string {
  if (error instanceof WebhookAddressError) return error.reason;
  if (error.code === 'ECONNREFUSED') return 'connection_refused';
  if (error.code?.startsWith('ERR_TLS') || error.code?.includes('CERT') || error.code === 'EPROTO') return 'tls_failed';
  return 'connection_failed';
}

/**
 * One POST of an event: signed with every valid secret (one `v1` each), `Starsgate-Event-Id` for
 * deduplication. The host is resolved and checked against `allowance` at every attempt and the
 * connection goes to that checked address (no DNS rebinding in between). Only a 2xx within
 * `timeoutMs` counts; redirects are not followed.
 */
export async function postWebhook(
  url: string,
  event: { id: string; body: string },
  secrets: readonly string[],
  timeoutMs: number,
  allowance: PrivateAddressAllowance,
  now = Date.now(),
): Promise<WebhookAttemptResult> {
  const target = new URL(url);
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const pinned = await resolveWebhookAddress(target.hostname, allowance);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const status = await new Promise<number>((resolve, reject) => {
      const req = send(
        target,
        {
          method: 'POST',
          signal,
          lookup: pinnedLookup(pinned),
          headers: {
            'Content-Type': 'application/json',
            'Content-Length': Buffer.byteLength(event.body),
            'User-Agent': 'starsgate-webhooks/1',
            'Starsgate-Event-Id': event.id,
            'Starsgate-Signature': webhookSignatureHeader(secrets, Math.floor(now / 1000), event.body),
          },
        },
        (response: IncomingMessage) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(event.body);
    });
    const ok = status >= 200 && status < 300;
    return { ok, status, error: ok ? null : `HTTP ${status}` };
  } catch (error) {
    if (signal.aborted) return { ok: false, status: null, error: 'timeout' };
    return { ok: false, status: null, error: errorClass(error as NodeJS.ErrnoException) };
  }
}
