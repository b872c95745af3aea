import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { redactCookies, type CookieJar } from './session';

/**
 * Every `Set-Cookie` Fragment sends, kept per login in Redis (docs/fragment-protocol.md §20.2),
 * so every replica and a restarted worker send the login's current cookies, not the ones it was
 * configured with. A login is the configured cookie header: an operator who renews it (a new
 * header) starts a new record, and nothing older overrides the renewal.
 *
 * Cookie values are credentials: stored under the key ring's seal when the worker gives a
 * `codec`, never logged; the key names a hash of the configured header, not the header.
 */
export const COOKIE_STORE_PREFIX = 'starsgate:fragment:cookies:';

/** Seals a cookie value for Redis and opens it again (the worker's key ring). */
export interface CookieCodec {
  seal(name: string, value: string): string;
  open(name: string, sealed: string): string;
}

export class RedisCookieStore {
  constructor(
    private readonly redis: Pick<Redis, 'hgetall' | 'hset'>,
    private readonly options: { prefix?: string; codec?: CookieCodec } = {},
  ) {}

  /** The record of the login configured with `configured` (a Cookie header): 12 hex of its SHA-256. */
  key(configured: string): string {
    const id = createHash('sha256').update(`cookies:${configured}`).digest('hex').slice(0, 12);
    return `${this.options.prefix ?? COOKIE_STORE_PREFIX}${id}`;
  }

  /** Stored cookies by name; undefined: Fragment removed it. */
  async load(key: string): Promise<Map<string, string | undefined>> {
    const fields = await this.redis.hgetall(key);
    const codec = this.options.codec;
    const out = new Map<string, string | undefined>();
    for (const [name, stored] of Object.entries(fields))
      out.set(name, stored === '' ? undefined : codec ? codec.open(name, stored) : stored);
    return out;
  }

  async save(key: string, changes: ReadonlyMap<string, string | undefined>): Promise<void> {
    const codec = this.options.codec;
    const fields: Record<string, string> = {};
    for (const [name, value] of changes)
      fields[name] = value === undefined ? '' : codec ? codec.seal(name, value) : value;
    if (Object.keys(fields).length > 0) await this.redis.hset(key, fields);
  }
}

/**
 * One client's jar tied to the store: its changes are saved (in order), and `pull()` adopts what
 * the store holds before each request, so a cookie another replica received is sent here too.
 * Redis out of reach: the jar goes on with what it has (a warning), Fragment's answer decides.
 */
export class PersistedCookies {
  private readonly key: string;
  private pending = new Map<string, string | undefined>();
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly jar: CookieJar,
    private readonly store: RedisCookieStore,
    configured: string,
    private readonly warn: (message: string) => void,
  ) {
    this.key = store.key(configured);
    jar.onChange = (name, value) => {
      this.pending.set(name, value);
      this.saving = this.saving.then(() => this.flush());
    };
  }

  async pull(): Promise<void> {
    await this.saving;
    try {
      for (const [name, value] of await this.store.load(this.key)) this.jar.adopt(name, value);
    } catch (error) {
      this.warn(`fragment cookies: stored cookies not read (${errorText(error)}); using this process's`);
    }
  }

  private async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const changes = this.pending;
    this.pending = new Map();
    try {
      await this.store.save(this.key, changes);
    } catch (error) {
      this.warn(`fragment cookies: ${changes.size} changed cookie(s) not stored (${errorText(error)})`);
    }
  }
}

function errorText(error: unknown): string {
  return redactCookies(error instanceof Error ? error.message : String(error));
}
