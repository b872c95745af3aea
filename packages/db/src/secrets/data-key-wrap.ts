import { diffieHellman, generateKeyPairSync, hkdfSync, randomBytes, type KeyObject } from 'node:crypto';
import { aesGcmDecrypt, aesGcmEncrypt, NONCE_BYTES } from './aes-gcm';
import { rawPublicKey, X25519_KEY_BYTES, x25519PublicKey } from './x25519';

/**
 * Where a data key is wrapped to. `x25519`: sealed to a public key, so whoever seals (the gateway)
 * cannot unwrap; `aes`: the legacy symmetric key-encryption key, still read so rows sealed before
 * the change stay readable until `starsgate keys rewrap` moves them (docs/security.md).
 */
export type WrapTarget =
  | { keyId: string; kind: 'x25519'; publicKey: KeyObject; publicRaw: Buffer }
  | { keyId: string; kind: 'aes'; key: Buffer };

export type UnwrapKey = { kind: 'x25519'; privateKey: KeyObject; publicRaw: Buffer } | { kind: 'aes'; key: Buffer };

const SEAL_INFO = Buffer.from('starsgate/seal/x25519-hkdf-sha256-aes256gcm/v1');

function wrapAad(recordId: string, keyId: string): string {
  return `wallet-secret-key:${recordId}:${keyId}`;
}

/** HPKE base mode's shape (RFC 9180): ephemeral X25519, HKDF over the shared secret and both public keys, AEAD. */
function sealKey(shared: Buffer, ephemeralRaw: Buffer, recipientRaw: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', shared, Buffer.concat([ephemeralRaw, recipientRaw]), SEAL_INFO, 32));
}

export function x25519Target(keyId: string, publicRaw: Buffer): WrapTarget {
  return { keyId, kind: 'x25519', publicKey: x25519PublicKey(publicRaw), publicRaw };
}

/** How long one ephemeral key pair seals, and for how many records at most. */
export const EPHEMERAL_KEY_MAX_AGE_MS = 1_000;
export const EPHEMERAL_KEY_MAX_USES = 1_024;

interface Ephemeral {
  raw: Buffer;
  /** The wrap key derived from it and the target: what the ephemeral private key is needed for. */
  key: Buffer;
  uses: number;
  expiresAt: number;
}

const ephemerals = new WeakMap<KeyObject, Ephemeral>();

/**
 * The ephemeral key of a target's seals. A key pair, its Diffie-Hellman and HKDF cost about 40 %
 * of the gateway's CPU per purchase when made for every record (the bench's profile), so one
 * serves up to a second or EPHEMERAL_KEY_MAX_USES records: each record still has its own data key
 * and nonce, and the AAD binds the wrap to the record, so a wrap opens for its record only; the
 * wrap key lives in the gateway's memory a second longer, beside seeds the gateway saw in clear.
 */
function ephemeralFor(target: { publicKey: KeyObject; publicRaw: Buffer }, now: number): Ephemeral {
  const current = ephemerals.get(target.publicKey);
  if (current && current.uses < EPHEMERAL_KEY_MAX_USES && now < current.expiresAt) return current;
  current?.key.fill(0);
  const pair = generateKeyPairSync('x25519');
  const raw = rawPublicKey(pair.publicKey);
  const shared = diffieHellman({ privateKey: pair.privateKey, publicKey: target.publicKey });
  const next = { raw, key: sealKey(shared, raw, target.publicRaw), uses: 0, expiresAt: now + EPHEMERAL_KEY_MAX_AGE_MS };
  shared.fill(0);
  ephemerals.set(target.publicKey, next);
  return next;
}

/** x25519: ephemeral public key ‖ nonce ‖ tag ‖ ciphertext; aes: nonce ‖ tag ‖ ciphertext. */
export function wrapDataKey(target: WrapTarget, recordId: string, dataKey: Buffer, now = Date.now()): Buffer {
  const aad = wrapAad(recordId, target.keyId);
  if (target.kind === 'aes') return aesGcmEncrypt(target.key, dataKey, aad, randomBytes(NONCE_BYTES));
  const ephemeral = ephemeralFor(target, now);
  ephemeral.uses += 1;
  return Buffer.concat([ephemeral.raw, aesGcmEncrypt(ephemeral.key, dataKey, aad, randomBytes(NONCE_BYTES))]);
}

export function unwrapDataKey(source: UnwrapKey, keyId: string, recordId: string, wrapped: Buffer): Buffer {
  const aad = wrapAad(recordId, keyId);
  if (source.kind === 'aes') return aesGcmDecrypt(source.key, wrapped, aad);
  const ephemeralRaw = wrapped.subarray(0, X25519_KEY_BYTES);
  const shared = diffieHellman({ privateKey: source.privateKey, publicKey: x25519PublicKey(ephemeralRaw) });
  const key = sealKey(shared, ephemeralRaw, source.publicRaw);
  try {
    return aesGcmDecrypt(key, wrapped.subarray(X25519_KEY_BYTES), aad);
  } finally {
    shared.fill(0);
    key.fill(0);
  }
}
