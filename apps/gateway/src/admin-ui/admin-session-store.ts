import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

export interface AdminSession {
  /** The operator name given at login: pre-fills the audit fields of the page's actions. */
  operator: string;
  /** Sent back by the page in `X-CSRF-Token` on every state-changing request. */
  csrf: string;
  /** SHA-256 of the admin token used to log in: the session ends when that token is rotated out. */
  tokenDigest: string;
  createdAt: string;
}

const sha256 = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');

/**
 * Dashboard sessions in Redis, shared by every gateway replica. The cookie carries a random id;
 * Redis keys hold only its hash, so a copy of Redis cannot be replayed as a cookie. Sessions
 * slide: each use extends them by `ttlMs`.
 */
export class AdminSessionStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    readonly ttlMs: number,
  ) {}

  private key(id: string): string {
    return `${this.prefix}${sha256(id)}`;
  }

  async create(operator: string, token: string): Promise<{ id: string; session: AdminSession }> {
    const id = randomBytes(32).toString('base64url');
    const session: AdminSession = {
      operator,
      csrf: randomBytes(32).toString('base64url'),
      tokenDigest: sha256(token),
      createdAt: new Date().toISOString(),
    };
    await this.redis.set(this.key(id), JSON.stringify(session), 'PX', this.ttlMs);
    return { id, session };
  }

  /** The live session of this id (its lifetime extended), or undefined. */
  async touch(id: string): Promise<AdminSession | undefined> {
    const key = this.key(id);
    const [[, raw], [, extended]] = (await this.redis.multi().get(key).pexpire(key, this.ttlMs).exec()) as [
      [unknown, string | null],
      [unknown, number],
    ];
    if (raw === null || extended !== 1) return undefined;
    try {
      return JSON.parse(raw) as AdminSession;
    } catch {
      return undefined;
    }
  }

  async destroy(id: string): Promise<void> {
    await this.redis.del(this.key(id));
  }

  static tokenDigest(token: string): string {
    return sha256(token);
  }
}
