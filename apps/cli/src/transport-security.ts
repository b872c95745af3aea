import { isIPv4 } from 'node:net';
import { AdminApiError } from './admin-client';

/** Set to `1` (or pass `--allow-insecure-http`) to send the admin token over plain http anyway. */
export const ALLOW_INSECURE_HTTP_ENV = 'STARSGATE_ALLOW_INSECURE_HTTP';
export const ALLOW_INSECURE_HTTP_FLAG = '--allow-insecure-http';

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '::1' ||
    (isIPv4(host) && host.startsWith('127.')) ||
    host.startsWith('::ffff:127.')
  );
}

/**
 * The admin token is a bearer credential: over plain http to another machine anyone on the path
 * reads it (docs/security.md, attack 16). Loopback never leaves the machine, so it stays allowed.
 */
export function refuseInsecureTransport(url: URL, allowInsecure: boolean): void {
  if (url.protocol === 'https:' || allowInsecure) return;
  if (url.protocol !== 'http:')
    throw new AdminApiError(null, 'CONFIGURATION', `STARSGATE_URL must be an http(s) URL, not ${url.protocol}`);
  if (isLoopback(url.hostname)) return;
  throw new AdminApiError(
    null,
    'INSECURE_URL',
    `refusing to send the admin token over plain http to ${url.host}: use https, ` +
      `or set ${ALLOW_INSECURE_HTTP_ENV}=1 (or pass ${ALLOW_INSECURE_HTTP_FLAG}) on a network you trust`,
  );
}
