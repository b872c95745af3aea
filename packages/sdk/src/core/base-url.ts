const LOOPBACK_NAMES = new Set(['localhost', 'localhost.localdomain']);

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (LOOPBACK_NAMES.has(host) || host === '::1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

export function checkBaseURL(baseURL: string): string {
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    throw new TypeError(`baseURL must be an http(s) URL, got ${JSON.stringify(baseURL)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`baseURL must be an http(s) URL, got ${JSON.stringify(baseURL)}`);
  return baseURL.replace(/\/+$/, '');
}

/** Plain http to another machine: anyone on the path could read a seed. Loopback never leaves the host. */
export function seedTravelsInClear(baseURL: string): boolean {
  const url = new URL(baseURL);
  return url.protocol === 'http:' && !isLoopback(url.hostname);
}

/** An id as one path segment: a caller's string can never reach another route. */
export function pathSegment(id: string): string {
  if (typeof id !== 'string' || id.length === 0) throw new TypeError('an id must be a non-empty string');
  return encodeURIComponent(id);
}
