const LOOPBACK_NAMES = new Set(['localhost', 'localhost.localdomain']);

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (LOOPBACK_NAMES.has(host) || host === '::1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Seeds travel in request bodies: plain http is allowed to this machine only, unless the caller insists. */
export function checkBaseURL(baseURL: string, allowInsecureHttp: boolean): string {
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    throw new TypeError(`baseURL must be an http(s) URL, got ${JSON.stringify(baseURL)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`baseURL must be an http(s) URL, got ${JSON.stringify(baseURL)}`);
  if (url.protocol === 'http:' && !allowInsecureHttp && !isLoopback(url.hostname))
    throw new TypeError(
      'Refusing plain http:// to a host other than this machine: seeds would travel unencrypted. Use https://, or pass allowInsecureHttp: true if the network path is private and trusted.',
    );
  return baseURL.replace(/\/+$/, '');
}

/** An id as one path segment: a caller's string can never reach another route. */
export function pathSegment(id: string): string {
  if (typeof id !== 'string' || id.length === 0) throw new TypeError('an id must be a non-empty string');
  return encodeURIComponent(id);
}
