import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { refusePublishedKeys } from './published-keys';

export interface KeyRing {
  /** New secrets are sealed with this key. */
  primaryId: string;
  keys: ReadonlyMap<string, Buffer>;
}

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * `STARSGATE_SECRET_KEY` holds one or more key-encryption keys: `id:base64,id:base64`, the
 * first being primary. Older keys stay listed until every row is re-wrapped. A bare Base64
 * value is accepted as key id `k1`.
 */
export function parseKeyRing(value: string): KeyRing {
  const keys = new Map<string, Buffer>();
  let primaryId: string | undefined;
  for (const entry of value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const separator = entry.indexOf(':');
    const id = separator === -1 ? 'k1' : entry.slice(0, separator);
    const encoded = separator === -1 ? entry : entry.slice(separator + 1);
    if (!KEY_ID.test(id)) throw new Error(`STARSGATE_SECRET_KEY: key id "${id}" must be 1-32 letters, digits, _ or -`);
    const key = Buffer.from(encoded, 'base64');
    if (key.length !== 32 || key.toString('base64') !== encoded) {
      throw new Error(`STARSGATE_SECRET_KEY: key "${id}" must be the canonical Base64 of 32 random bytes`);
    }
    if (keys.has(id)) throw new Error(`STARSGATE_SECRET_KEY: key id "${id}" appears twice`);
    keys.set(id, key);
    primaryId ??= id;
  }
  if (!primaryId) throw new Error('STARSGATE_SECRET_KEY is empty');
  return { primaryId, keys };
}

export interface LoadKeyRingOptions {
  value: string | undefined;
  /** Where a development key is generated once, when no key is configured. */
  dataDir: string;
  /** False in production: then a key is required and a published one is refused. */
  allowGenerated: boolean;
  warn: (message: string) => void;
}

export function loadKeyRing(options: LoadKeyRingOptions): KeyRing {
  if (options.value) {
    const ring = parseKeyRing(options.value);
    if (!options.allowGenerated) refusePublishedKeys(ring);
    return ring;
  }
  if (!options.allowGenerated) {
    throw new Error(
      'STARSGATE_SECRET_KEY is required in production: set it to "k1:<base64 of 32 random bytes>" (openssl rand -base64 32)',
    );
  }
  const file = path.join(options.dataDir, 'secret-key');
  if (!existsSync(file)) {
    mkdirSync(options.dataDir, { recursive: true });
    writeFileSync(file, `dev:${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  }
  options.warn(
    `STARSGATE_SECRET_KEY is not set: using the development key in ${file}. ` +
      'Wallet secrets encrypted with it are only as safe as that file. Never run production like this.',
  );
  return parseKeyRing(readFileSync(file, 'utf8').trim());
}
