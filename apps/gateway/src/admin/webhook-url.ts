import { isIP } from 'node:net';
import { AppError } from '@starsgate/domain';

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/** Only http(s) URLs; plain http only to a loopback address unless `allowHttp` (WEBHOOK_ALLOW_HTTP). */
export function checkWebhookUrl(value: string, allowHttp: boolean): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw AppError.field('WEBHOOK_URL_NOT_ALLOWED', 'url', 'url is not an absolute URL.');
  }
  if (url.username || url.password)
    throw AppError.field('WEBHOOK_URL_NOT_ALLOWED', 'url', 'url must not carry credentials.');
  if (url.protocol === 'https:') return url.toString();
  if (url.protocol === 'http:' && (allowHttp || isLoopback(url.hostname))) return url.toString();
  throw AppError.field('WEBHOOK_URL_NOT_ALLOWED', 'url');
}
