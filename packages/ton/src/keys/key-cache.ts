import { randomBytes } from 'node:crypto';
import { preparedHmacSha256 } from '@starsgate/domain';

/**
 * In-memory cache of derived PUBLIC keys, so resolving a seed's wallet again (a retried order,
 * the worker checking a stored address) does not pay 100 000 PBKDF2 iterations again. Never a
 * private key: those are derived where they sign and wiped after (deriveKeyPair). Keys are
 * HMAC-SHA256 under a random per-process key: the cache never holds the seed text and its keys are
 * useless outside this process. Bounded (LRU, `MAX_ENTRIES`) and time-limited (`TTL_MS`). Callers
 * receive copies.
 */
const MAX_ENTRIES = 1024;
const TTL_MS = 10 * 60_000;

const processHmac = preparedHmacSha256(randomBytes(32));
const entries = new Map<string, { publicKey: Buffer; expiresAt: number }>();

export function cacheKey(parts: ReadonlyArray<string>): string {
  return processHmac(parts.flatMap((part) => [part, '\u0000'])).toString('hex');
}

export function getCachedPublicKey(key: string, now = Date.now()): Buffer | undefined {
  const entry = entries.get(key);
  if (!entry) return undefined;
  entries.delete(key);
  if (entry.expiresAt <= now) return undefined;
  entries.set(key, entry); // most recently used goes last
  return Buffer.from(entry.publicKey);
}

export function putCachedPublicKey(key: string, publicKey: Buffer, now = Date.now()): void {
  entries.delete(key);
  entries.set(key, { publicKey: Buffer.from(publicKey), expiresAt: now + TTL_MS });
  while (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
}

/** Drop every cached public key (tests start from an empty cache). */
export function clearKeyCache(): void {
  entries.clear();
}

export function keyCacheSize(): number {
  return entries.size;
}

/** Every buffer the cache holds (tests prove no private key is among them). */
export function keyCacheContents(): Buffer[] {
  return [...entries.values()].map((entry) => Buffer.from(entry.publicKey));
}
