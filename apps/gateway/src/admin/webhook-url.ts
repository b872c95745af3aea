import { isIP } from 'node:net';
import { AppError } from '@starsgate/domain';
import { resolveWebhookAddress, WebhookAddressError, type PrivateAddressAllowance } from '@starsgate/platform';

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

export interface WebhookUrlPolicy {
  /** WEBHOOK_ALLOW_HTTP: plain http to hosts other than loopback. */
  allowHttp: boolean;
  /** WEBHOOK_ALLOW_PRIVATE: which non-public addresses the host may resolve to. */
  allowPrivate: PrivateAddressAllowance;
}

/**
 * Only http(s) URLs (plain http only to a loopback address unless `allowHttp`) whose host resolves
 * to public addresses only, unless `allowPrivate` admits more. The worker checks again, and pins
 * the address, at every delivery (apps/worker/src/webhooks/webhook-post.ts).
 */
export async function checkWebhookUrl(value: string, policy: WebhookUrlPolicy): Promise<string> {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw AppError.field('WEBHOOK_URL_NOT_ALLOWED', 'url', 'url is not an absolute URL.');
  }
  if (url.username || url.password)
    throw AppError.field('WEBHOOK_URL_NOT_ALLOWED', 'url', 'url must not carry credentials.');
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && (policy.allowHttp || isLoopback(url.hostname))))
    throw AppError.field('WEBHOOK_URL_NOT_ALLOWED', 'url');
  try {
    await resolveWebhookAddress(url.hostname, policy.allowPrivate);
  } catch (error) {
    // A name that does not resolve yet may be registered ahead of its receiver: nothing can be
    // reached through it, and every delivery resolves and checks it again.
    if (error instanceof WebhookAddressError && error.reason === 'address_not_allowed')
      throw AppError.field('WEBHOOK_URL_NOT_ALLOWED', 'url', `url: ${error.message}.`);
    if (!(error instanceof WebhookAddressError)) throw error;
  }
  return url.toString();
}
