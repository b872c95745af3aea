/**
 * @ton/crypto's synchronous primitives on node:crypto (OpenSSL), for the whole process.
 *
 * @ton/core hashes every cell it builds or parses with @ton/crypto's `sha256_sync`, which on Node
 * runs jssha, in JavaScript, over a hex copy of the bytes; @ton/ton signs, and @ton/crypto derives
 * keys and verifies signatures, with tweetnacl's JavaScript ed25519. A profile of the worker's
 * suites put the two at 28 % of their CPU (tweetnacl 17 %, jssha 11 %); they weigh as much in the
 * local chain and in every wallet that signs a transfer.
 *
 * useNativeTonCrypto() swaps both for node:crypto in this process, the way OpenTelemetry's
 * instrumentations patch a library (start-tracing.ts): nothing to change at the call sites in
 * @ton/core, @ton/ton and @ton/sandbox. The bytes out are the same (SHA-256 and SHA-512 are
 * standard; an ed25519 signature is deterministic, RFC 8032), which test/keys/native-crypto.test.ts
 * asserts against the JavaScript originals. Whatever the native path would answer differently
 * goes to the original: arguments of the wrong type or size (tweetnacl's own errors), and a secret
 * key whose second half is not its seed's public key. One difference is kept on purpose: OpenSSL
 * refuses a signature whose S is not reduced (RFC 8032 §5.1.7), as the TON validators' OpenSSL
 * does, where tweetnacl accepts it.
 *
 * Call it once at a process's start: each service's main.ts, and jest.setup.js for the tests.
 */
import { createHash } from 'node:crypto';
import nacl from 'tweetnacl';
import { keyPairFromSeed, signEd25519IfConsistent, verifyEd25519 } from './ed25519';

type SyncHash = (source: Buffer | string) => Buffer;

type Detached = typeof nacl.sign.detached;

const NATIVE = Symbol.for('starsgate.native-ton-crypto');

function syncHash(algorithm: 'sha256' | 'sha512'): SyncHash {
  return (source) =>
    createHash(algorithm)
      .update(typeof source === 'string' ? Buffer.from(source, 'utf-8') : source)
      .digest();
}

function isBytes(value: unknown, length: number): value is Uint8Array {
  return value instanceof Uint8Array && value.length === length;
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function nativeDetached(sign: typeof nacl.sign): Detached {
  const javascriptSign = sign.detached.bind(null);
  const javascriptVerify = sign.detached.verify.bind(null);
  const detached = (message: Uint8Array, secretKey: Uint8Array): Uint8Array => {
    if (!(message instanceof Uint8Array) || !isBytes(secretKey, 64)) return javascriptSign(message, secretKey);
    return signEd25519IfConsistent(asBuffer(message), asBuffer(secretKey)) ?? javascriptSign(message, secretKey);
  };
  detached.verify = (message: Uint8Array, signature: Uint8Array, publicKey: Uint8Array): boolean => {
    if (!(message instanceof Uint8Array) || !isBytes(signature, 64) || !isBytes(publicKey, 32))
      return javascriptVerify(message, signature, publicKey);
    return verifyEd25519(asBuffer(message), asBuffer(signature), asBuffer(publicKey));
  };
  return detached;
}

/** Swaps @ton/crypto's sync hashes and tweetnacl's ed25519 for node:crypto; idempotent. */
export function useNativeTonCrypto(): void {
  const sign = nacl.sign as typeof nacl.sign & { [NATIVE]?: true };
  if (sign[NATIVE]) return;
  // The hash modules' own exports objects: @ton/crypto's index re-exports them through getters, and
  // @ton/core reads `sha256_sync` through that index at every call. Literal paths, so that a
  // bundler resolves the very modules @ton/core uses.
  (require('@ton/crypto/dist/primitives/sha256') as { sha256_sync: SyncHash }).sha256_sync = syncHash('sha256');
  (require('@ton/crypto/dist/primitives/sha512') as { sha512_sync: SyncHash }).sha512_sync = syncHash('sha512');
  const javascriptFromSeed = sign.keyPair.fromSeed.bind(null);
  sign.keyPair.fromSeed = (seed: Uint8Array) =>
    isBytes(seed, 32) ? keyPairFromSeed(asBuffer(seed)) : javascriptFromSeed(seed);
  sign.detached = nativeDetached(sign);
  sign[NATIVE] = true;
}
