import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';

// DER prefixes of an X25519 key (RFC 8410): PKCS#8 for the private key, SPKI for the public one.
const PKCS8_PREFIX = Buffer.from('302e020100300506032b656e04220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b656e032100', 'hex');
export const X25519_KEY_BYTES = 32;

export function x25519PrivateKey(raw: Buffer): KeyObject {
  return createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, raw]), format: 'der', type: 'pkcs8' });
}

export function x25519PublicKey(raw: Buffer): KeyObject {
  return createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
}

export function rawPublicKey(key: KeyObject): Buffer {
  return key.export({ format: 'der', type: 'spki' }).subarray(SPKI_PREFIX.length);
}

export function rawPrivateKey(key: KeyObject): Buffer {
  return key.export({ format: 'der', type: 'pkcs8' }).subarray(PKCS8_PREFIX.length);
}

/** A fresh key pair as raw 32-byte strings (what `STARSGATE_SECRET_KEY` / `STARSGATE_SEAL_KEY` hold). */
export function generateX25519(): { privateKey: Buffer; publicKey: Buffer } {
  const pair = generateKeyPairSync('x25519');
  return { privateKey: rawPrivateKey(pair.privateKey), publicKey: rawPublicKey(pair.publicKey) };
}
