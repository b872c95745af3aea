/**
 * The Fragment login held by one client: its cookie jar (every `Set-Cookie` stored, protocol
 * docs/fragment-protocol.md §4) and the session-bound API hash read from a product page (§3.1), cached for at
 * most `hashTtlMs`.
 *
 * Cookies are credentials: nothing here ever renders a `stel_*` value except `cookieHeader()`,
 * which goes on the wire only. Use `redactCookies()` for anything that might be logged.
 */

/** One origin's cookies, by name. Attributes other than expiry are irrelevant for one host. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();
  /** Told of every change a `Set-Cookie` makes (value undefined: removed); `PersistedCookies` saves them. */
  onChange: ((name: string, value: string | undefined) => void) | undefined;

  /** `"stel_ssid=…; stel_dt=-180; stel_token=…"` (the browser's Cookie header format). */
  constructor(initial = '') {
    for (const part of initial.split(';')) {
      const eq = part.indexOf('=');
      if (eq <= 0) continue;
      const name = part.slice(0, eq).trim();
      const value = part.slice(eq + 1).trim();
      if (name !== '') this.cookies.set(name, value);
    }
  }

  /** Applies one `Set-Cookie` header value; expired or `deleted` cookies are removed. */
  setCookie(header: string, now = Date.now()): void {
    const [pair = '', ...attributes] = header.split(';');
    const eq = pair.indexOf('=');
    if (eq <= 0) return;
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    let expired = value === '' || value === 'deleted';
    for (const attribute of attributes) {
      const [key = '', ...rest] = attribute.split('=');
      const attrName = key.trim().toLowerCase();
      const attrValue = rest.join('=').trim();
      if (attrName === 'max-age' && /^-?\d+$/.test(attrValue) && Number(attrValue) <= 0) expired = true;
      if (attrName === 'expires') {
        const at = Date.parse(attrValue);
        if (Number.isFinite(at) && at <= now) expired = true;
      }
    }
    const before = this.cookies.get(name);
    if (expired) this.cookies.delete(name);
    else this.cookies.set(name, value);
    const after = expired ? undefined : value;
    if (after !== before) this.onChange?.(name, after);
  }

  /** Applies a stored value (undefined: removed) without telling `onChange`: it came from the store. */
  adopt(name: string, value: string | undefined): void {
    if (value === undefined) this.cookies.delete(name);
    else this.cookies.set(name, value);
  }

  /** Stores every `Set-Cookie` header of one response. */
  storeAll(setCookieHeaders: readonly string[]): void {
    for (const header of setCookieHeaders) this.setCookie(header);
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  has(name: string): boolean {
    return this.cookies.has(name);
  }

  names(): string[] {
    return [...this.cookies.keys()];
  }

  /** Header value for requests. Never log it. */
  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** Cookie names with values masked: safe for logs. */
  toString(): string {
    return [...this.cookies.keys()].map((name) => `${name}=[redacted]`).join('; ');
  }

  toJSON(): string {
    return this.toString();
  }
}

/**
 * FRAGMENT_COOKIES holds one browser Cookie header, or several (one per login session) joined by
 * `|`, which no cookie value contains.
 */
export function splitCookieSets(value: string): string[] {
  return value
    .split('|')
    .map((part) => part.trim())
    .filter(Boolean);
}

/**
 * FRAGMENT_PROXY_URL: none, one proxy for every login, or one per login of FRAGMENT_COOKIES in the
 * same order, joined by `|` (which no URL this accepts contains).
 */
export function splitProxyUrls(value: string | undefined): string[] {
  return (value ?? '')
    .split('|')
    .map((part) => part.trim())
    .filter(Boolean);
}

/** The proxy of login `index`: the only one configured, its own, or none. */
export function proxyForLogin(proxies: readonly string[], index: number): string | undefined {
  return proxies.length === 1 ? proxies[0] : proxies[index];
}

/**
 * A Cookie header without the wallet's login (`stel_ton_token`), for a process that only reads
 * (pages, prices, search, history): Fragment rotates that token (docs/fragment-protocol.md §20.2)
 * and the workers keep the current one in their shared cookie store, so another holder sending it
 * from a jar of its own would rotate it too and push the workers' copy out of what Fragment
 * accepts, the paying login then dead.
 */
export function withoutWalletToken(cookies: string): string {
  return cookies
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '' && !/^stel_ton_token=/i.test(part))
    .join('; ');
}

/** Masks the value of every `stel_*` cookie (and the API hash) in a free text. */
export function redactCookies(text: string): string {
  return text
    .replace(/\b(stel_[a-z_]+)=([^;,\s]*)/gi, '$1=[redacted]')
    .replace(/(api\?hash=)[0-9a-f]+/gi, '$1[redacted]');
}

/** The session's API hash with the time it was read. */
export class ApiHashCache {
  private value: string | undefined;
  private readAt = 0;

  constructor(private readonly ttlMs: number) {}

  /** The cached hash if younger than the TTL. */
  current(now = Date.now()): string | undefined {
    return this.value !== undefined && now - this.readAt < this.ttlMs ? this.value : undefined;
  }

  store(hash: string, now = Date.now()): void {
    this.value = hash;
    this.readAt = now;
  }

  /** Forget the hash (Fragment rejected it); the next call re-reads the page. */
  invalidate(): void {
    this.value = undefined;
    this.readAt = 0;
  }
}
