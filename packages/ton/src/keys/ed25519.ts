import { createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto';

/** A key pair in @ton/crypto's layout: `secretKey` = 32-byte seed ‖ 32-byte public key. */
export interface WalletKeyPair {
  publicKey: Buffer;
  secretKey: Buffer;
}

// DER prefix of a PKCS#8 ed25519 private key; the 32-byte seed follows.
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * ed25519 key pair from a 32-byte private seed, computed by node:crypto (OpenSSL) rather than
 * tweetnacl's JS scalar multiplication: ~20× faster, which matters when scanning 101 accounts.
 * Same result as @ton/crypto `keyPairFromSeed` (asserted in tests).
 */
export function keyPairFromSeed(seed: Buffer): WalletKeyPair {
  if (seed.length !== 32) throw new RangeError('an ed25519 seed is 32 bytes');
  const spki = createPublicKey(privateKeyOf(seed)).export({ format: 'der', type: 'spki' });
  const publicKey = Buffer.from(spki.subarray(spki.length - 32));
  return { publicKey, secretKey: Buffer.concat([seed, publicKey]) };
}

/** node:crypto's key object for a 32-byte ed25519 seed; the DER copy of the seed is wiped at once. */
function privateKeyOf(seed: Buffer): KeyObject {
  const der = Buffer.concat([PKCS8_ED25519_PREFIX, seed]);
  try {
    return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  } finally {
    der.fill(0);
  }
}

/**
 * ed25519 signature of `data` with a @ton/crypto secret key (seed ‖ public key), by node:crypto:
 * the same deterministic signature as tweetnacl's `sign.detached`, about 50× faster, so signing
 * an external no longer stalls the worker's event loop for milliseconds.
 */
export function signEd25519(data: Buffer, secretKey: Buffer): Buffer {
  if (secretKey.length !== 64) throw new RangeError('secretKey must be 64 bytes (seed ‖ public key)');
  return sign(null, data, privateKeyOf(secretKey.subarray(0, 32)));
}
