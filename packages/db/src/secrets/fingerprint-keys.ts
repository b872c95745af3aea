import { hkdfSync, randomBytes } from 'node:crypto';
import { preparedHmacSha256 } from '@starsgate/domain';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { decodeKey32, parseKeyList } from './key-ring';
import { refusePublishedKeys } from './published-keys';

/**
 * Keyed hashes for idempotency fingerprints: two requests can be compared without storing anything
 * from which the secret could be recovered or brute-forced offline. Its own secret
 * (`STARSGATE_FINGERPRINT_KEY`, `id:base64,…`, primary first), never a key that opens secrets; a
 * row names the key id it was hashed with, so older ids stay listed while their rows can replay.
 */
export class FingerprintKeys {
  /** Derived once per key id: HKDF on every request was a measurable share of intake CPU. */
  private readonly derived = new Map<string, (parts: ReadonlyArray<string>) => Buffer>();
  private readonly secrets: ReadonlyMap<string, Buffer>;
  readonly primaryKeyId: string;

  constructor(value: string) {
    const entries = parseKeyList('STARSGATE_FINGERPRINT_KEY', value);
    this.primaryKeyId = entries[0]!.id;
    this.secrets = new Map(
      entries.map((entry) => [entry.id, decodeKey32('STARSGATE_FINGERPRINT_KEY', entry.id, entry.value)]),
    );
  }

  /** Null when `keyId` is not listed (a row hashed with a key since removed). */
  fingerprint(parts: readonly string[], keyId: string = this.primaryKeyId): string | null {
    let hmac = this.derived.get(keyId);
    if (!hmac) {
      const secret = this.secrets.get(keyId);
      if (!secret) return null;
      const key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'starsgate/request-fingerprint/v1', 32));
      hmac = preparedHmacSha256(key);
      key.fill(0);
      this.derived.set(keyId, hmac);
    }
    return hmac(parts.map((part) => `${part.length}:${part}`)).toString('hex');
  }
}

export interface LoadFingerprintKeysOptions {
  value: string | undefined;
  dataDir: string;
  allowGenerated: boolean;
  warn: (message: string) => void;
}

export function loadFingerprintKeys(options: LoadFingerprintKeysOptions): FingerprintKeys {
  if (options.value) {
    if (!options.allowGenerated) refusePublishedKeys('STARSGATE_FINGERPRINT_KEY', options.value);
    return new FingerprintKeys(options.value);
  }
  if (!options.allowGenerated) {
    throw new Error(
      'STARSGATE_FINGERPRINT_KEY is required in production: set it to "f1:<base64 of 32 random bytes>" (openssl rand -base64 32)',
    );
  }
  const file = path.join(options.dataDir, 'fingerprint-key');
  if (!existsSync(file)) {
    mkdirSync(options.dataDir, { recursive: true });
    try {
      writeFileSync(file, `dev-f1:${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  options.warn(`STARSGATE_FINGERPRINT_KEY is not set: using the development key in ${file}.`);
  return new FingerprintKeys(readFileSync(file, 'utf8').trim());
}
