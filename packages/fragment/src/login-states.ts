import type { Redis } from 'ioredis';

/**
 * Each Fragment login's state as every replica and the operator API see it
 * (docs/fragment-protocol.md §20.3): alive or dead since when, why, the wallet its page shows
 * linked, and its last order. One Redis hash, one field per login (`sessionId`); a replica that
 * finds a login logged out marks it dead here, so every replica takes it out of rotation at once.
 * Nothing secret is stored: ids are hashes, the wallet is a public address.
 */
export const LOGIN_STATES_KEY = 'starsgate:fragment:logins';

export interface LoginState {
  /** The login's session id (`FragmentClient.sessionId()`): 12 hex, not a credential. */
  sessionId: string;
  /** The Telegram account it belongs to (`FragmentClient.accountId()`). */
  accountId: string;
  alive: boolean;
  /** ISO time the login became alive or dead (its first state, or its last change). */
  since: string;
  /** Why it is dead (the adapter's message; never a cookie). */
  reason?: string;
  /** The wallet linked to the account, as its page's `Wallet.init` shows it (raw address). */
  wallet?: string;
  /** ISO time of its last order created (`init…Request` answered). */
  lastOrderAt?: string;
  /** ISO time of the last check of a dead login. */
  checkedAt?: string;
}

/** The hash commands the states need: Redis, or `MemoryHash` for a process alone. */
export type LoginStateHash = Pick<Redis, 'hgetall' | 'hget' | 'hset' | 'hsetnx' | 'hdel'>;

export class LoginStates {
  constructor(
    private readonly redis: LoginStateHash,
    private readonly key: string = LOGIN_STATES_KEY,
  ) {}

  /** States kept in this process only (no Redis): one replica alone, or a test. */
  static inMemory(): LoginStates {
    const hash = new Map<string, string>();
    const memory = {
      hgetall: () => Promise.resolve(Object.fromEntries(hash)),
      hget: (_key: string, field: string) => Promise.resolve(hash.get(field) ?? null),
      hset: (_key: string, field: string, value: string) => {
        const added = hash.has(field) ? 0 : 1;
        hash.set(field, value);
        return Promise.resolve(added);
      },
      hdel: (_key: string, ...fields: string[]) => Promise.resolve(fields.filter((field) => hash.delete(field)).length),
      hsetnx: (_key: string, field: string, value: string) => {
        const added = hash.has(field) ? 0 : 1;
        if (added === 1) hash.set(field, value);
        return Promise.resolve(added);
      },
    };
    return new LoginStates(memory as unknown as LoginStateHash);
  }

  async all(): Promise<LoginState[]> {
    const fields = await this.redis.hgetall(this.key);
    const lastOrders = new Map<string, string>();
    const states: LoginState[] = [];
    for (const [field, value] of Object.entries(fields)) {
      if (field.endsWith(':last-order')) {
        lastOrders.set(field.slice(0, -':last-order'.length), value);
        continue;
      }
      try {
        states.push(JSON.parse(value) as LoginState);
      } catch {
        // A field another version wrote: not a state this one can show.
      }
    }
    return states
      .map((state) => {
        const lastOrderAt = lastOrders.get(state.sessionId);
        return lastOrderAt !== undefined ? { ...state, lastOrderAt } : state;
      })
      .sort((a, b) => a.sessionId.localeCompare(b.sessionId));
  }

  async get(sessionId: string): Promise<LoginState | undefined> {
    const value = await this.redis.hget(this.key, sessionId);
    if (value === null) return undefined;
    try {
      return JSON.parse(value) as LoginState;
    } catch {
      return undefined;
    }
  }

  /** The ids of the logins marked dead. */
  async deadIds(): Promise<Set<string>> {
    return new Set((await this.all()).filter((state) => !state.alive).map((state) => state.sessionId));
  }

  /** Records a login as configured: alive unless a replica already knows it (dead or alive). */
  async register(sessionId: string, accountId: string, now = new Date()): Promise<void> {
    const state: LoginState = { sessionId, accountId, alive: true, since: now.toISOString() };
    await this.redis.hsetnx(this.key, sessionId, JSON.stringify(state));
  }

  /** Marks the login dead (keeping the time it died when it already was); `changed`: it was alive. */
  async markDead(
    sessionId: string,
    accountId: string,
    reason: string,
    now = new Date(),
  ): Promise<{ state: LoginState; changed: boolean }> {
    const previous = await this.get(sessionId);
    const state: LoginState = {
      ...previous,
      sessionId,
      accountId,
      alive: false,
      since: previous && !previous.alive ? previous.since : now.toISOString(),
      reason,
      checkedAt: now.toISOString(),
    };
    await this.redis.hset(this.key, sessionId, JSON.stringify(state));
    return { state, changed: previous?.alive !== false };
  }

  /** Marks the login alive (since now when it was dead), with the wallet its page shows; `changed`: it was dead. */
  async markAlive(
    sessionId: string,
    accountId: string,
    wallet: string | undefined,
    now = new Date(),
  ): Promise<{ state: LoginState; changed: boolean }> {
    const previous = await this.get(sessionId);
    const state: LoginState = {
      sessionId,
      accountId,
      alive: true,
      since: previous?.alive ? previous.since : now.toISOString(),
      ...(wallet !== undefined ? { wallet } : previous?.wallet !== undefined ? { wallet: previous.wallet } : {}),
      checkedAt: now.toISOString(),
    };
    await this.redis.hset(this.key, sessionId, JSON.stringify(state));
    return { state, changed: previous?.alive === false };
  }

  /** A login no longer configured (its file line replaced): no longer listed. */
  async forget(sessionId: string): Promise<void> {
    await this.redis.hdel(this.key, sessionId, `${sessionId}:last-order`);
  }

  /** A field of its own, so that replicas recording orders never overwrite each other's state. */
  async recordOrder(sessionId: string, now = new Date()): Promise<void> {
    await this.redis.hset(this.key, `${sessionId}:last-order`, now.toISOString());
  }
}
