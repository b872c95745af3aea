import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createPublicKey } from 'node:crypto';
import type { UnwrapKey } from './data-key-wrap';
import { refusePublishedKeys } from './published-keys';
import { generateX25519, rawPublicKey, x25519PrivateKey } from './x25519';

/** One key of the worker's ring: an X25519 private key, or a legacy symmetric key-encryption key. */
export type RingKey = UnwrapKey;

export interface KeyRing {
  /** New secrets are sealed (and old ones re-wrapped) to this key. */
  primaryId: string;
  keys: ReadonlyMap<string, RingKey>;
}

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const X25519_TAG = 'x25519:';

/** Decodes the canonical Base64 of exactly 32 bytes, or throws naming `variable` and `id`. */
export function decodeKey32(variable: string, id: string, encoded: string): Buffer {
  const key = Buffer.from(encoded, 'base64');
  if (key.length !== 32 || key.toString('base64') !== encoded) {
    throw new Error(`${variable}: key "${id}" must be the canonical Base64 of 32 bytes`);
  }
  return key;
}

/** `id:value,id:value`, in order; a bare value is key id `k1`. Ids are checked and unique. */
export function parseKeyList(variable: string, value: string): Array<{ id: string; value: string }> {
  const seen = new Set<string>();
  const entries = value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((entry) => {
      const separator = entry.indexOf(':');
      const id = separator === -1 ? 'k1' : entry.slice(0, separator);
      if (!KEY_ID.test(id)) throw new Error(`${variable}: key id "${id}" must be 1-32 letters, digits, _ or -`);
      if (seen.has(id)) throw new Error(`${variable}: key id "${id}" appears twice`);
      seen.add(id);
      return { id, value: separator === -1 ? entry : entry.slice(separator + 1) };
    });
  if (entries.length === 0) throw new Error(`${variable} is empty`);
  return entries;
}

function ringKey(id: string, value: string): RingKey {
  if (value.startsWith(X25519_TAG)) {
    const privateKey = x25519PrivateKey(decodeKey32('STARSGATE_SECRET_KEY', id, value.slice(X25519_TAG.length)));
    return { kind: 'x25519', privateKey, publicRaw: rawPublicKey(createPublicKey(privateKey)) };
  }
  return { kind: 'aes', key: decodeKey32('STARSGATE_SECRET_KEY', id, value) };
}

/**
 * `STARSGATE_SECRET_KEY` (the worker's, never the gateway's) holds the keys that open wallet and
 * webhook secrets, primary first: `id:x25519:base64` (an X25519 private key; the gateway seals to
 * its public key, `STARSGATE_SEAL_KEY`) or, from before sealing became asymmetric, `id:base64` (a
 * symmetric key-encryption key). Older keys stay listed until `starsgate keys status` counts 0.
 */
export function parseKeyRing(value: string): KeyRing {
  const entries = parseKeyList('STARSGATE_SECRET_KEY', value);
  return {
    primaryId: entries[0]!.id,
    keys: new Map(entries.map((entry) => [entry.id, ringKey(entry.id, entry.value)])),
  };
}

/** The public half of the ring's primary key as `STARSGATE_SEAL_KEY` spells it (`id:base64`). */
export function sealKeyOf(ring: KeyRing): string {
  const primary = ring.keys.get(ring.primaryId)!;
  if (primary.kind !== 'x25519') {
    throw new Error(
      `STARSGATE_SECRET_KEY: the primary key "${ring.primaryId}" is a symmetric key; put an X25519 key first ` +
        '(`starsgate keys generate`, docs/security.md)',
    );
  }
  return `${ring.primaryId}:${primary.publicRaw.toString('base64')}`;
}

/** A new ring entry: `id:x25519:<base64 private key>`. */
export function generateRingEntry(id: string): string {
  return `${id}:${X25519_TAG}${generateX25519().privateKey.toString('base64')}`;
}

export interface LoadKeyRingOptions {
  value: string | undefined;
  /** Where a development key is generated once, when no key is configured. */
  dataDir: string;
  /** False in production: then a key is required and a published one is refused. */
  allowGenerated: boolean;
  warn: (message: string) => void;
}

/**
 * The development ring in `<dataDir>/secret-key`, generated once. A file from before sealing
 * became asymmetric (a symmetric key first) gets an X25519 key put in front of it, so its old
 * rows stay readable and new ones are sealed to the new key.
 */
export function developmentKeyRingFile(dataDir: string): string {
  const file = path.join(dataDir, 'secret-key');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    try {
      writeFileSync(file, `${generateRingEntry('dev-x1')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const ring = parseKeyRing(readFileSync(file, 'utf8').trim());
  if (ring.keys.get(ring.primaryId)!.kind === 'aes') {
    const content = readFileSync(file, 'utf8').trim();
    writeFileSync(file, `${generateRingEntry(`dev-x${ring.keys.size + 1}`)},${content}\n`, { mode: 0o600 });
  }
  return file;
}

export function loadKeyRing(options: LoadKeyRingOptions): KeyRing {
  if (options.value) {
    if (!options.allowGenerated) refusePublishedKeys('STARSGATE_SECRET_KEY', options.value);
    return parseKeyRing(options.value);
  }
  if (!options.allowGenerated) {
    throw new Error(
      'STARSGATE_SECRET_KEY is required in production: generate it with `starsgate keys generate` (docs/security.md)',
    );
  }
  const file = developmentKeyRingFile(options.dataDir);
  options.warn(
    `STARSGATE_SECRET_KEY is not set: using the development key in ${file}. ` +
      'Wallet secrets encrypted with it are only as safe as that file. Never run production like this.',
  );
  return parseKeyRing(readFileSync(file, 'utf8').trim());
}
