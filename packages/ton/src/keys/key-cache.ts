import { createHmac, randomBytes } from 'node:crypto';
import type { WalletKeyPair } from './ed25519';

/**
 * In-memory cache of derived key pairs, so a purchase does not pay 100 000 PBKDF2 iterations
 * again for a seed resolved moments earlier. Keys are HMAC-SHA256 under a random per-process key:
 * the cache never holds the seed text and its keys are useless outside this process. Bounded
 * (LRU, `MAX_ENTRIES`) and time-limited (`TTL_MS`); evicted secret keys are zero-filled. Callers
 * always receive copies, so they may wipe what they get.
 */
const MAX_ENTRIES = 256;
const TTL_MS = 10 * 60_000;

const processKey = randomBytes(32);
const entries = new Map<string, { pair: WalletKeyPair; expiresAt: number }>();

export function cacheKey(parts: ReadonlyArray<string>): string {
  const hmac = createHmac('sha256', processKey);
  for (const part of parts) hmac.update(part).update('\u0000');
  return hmac.digest('hex');
}

function copy(pair: WalletKeyPair): WalletKeyPair {
  return { publicKey: Buffer.from(pair.publicKey), secretKey: Buffer.from(pair.secretKey) };
}

function evict(key: string): void {
  const entry = entries.get(key);
  if (!entry) return;
  entry.pair.secretKey.fill(0);
  entries.delete(key);
}

export function getCachedKeyPair(key: string, now = Date.now()): WalletKeyPair | undefined {
  const entry = entries.get(key);
  if (!entry) return undefined;
  if (entry.expiresAt <= now) {
    evict(key);
    return undefined;
  }
  entries.delete(key);
  entries.set(key, entry); // most recently used goes last
  return copy(entry.pair);
}

export function putCachedKeyPair(key: string, pair: WalletKeyPair, now = Date.now()): void {
  evict(key);
  entries.set(key, { pair: copy(pair), expiresAt: now + TTL_MS });
  while (entries.size > MAX_ENTRIES) {
    const oldest = entries.keys().next().value as string;
    evict(oldest);
  }
}

/** Drop (and wipe) every cached key; for tests and for an operator "forget keys" hook. */
export function clearKeyCache(): void {
  for (const key of [...entries.keys()]) evict(key);
}

export function keyCacheSize(): number {
  return entries.size;
}
