/**
 * Data-key wraps to an X25519 public key: one ephemeral key pair serves a second or
 * EPHEMERAL_KEY_MAX_USES records, and every wrap still opens for its own record only.
 */
import { randomBytes } from 'node:crypto';
import {
  EPHEMERAL_KEY_MAX_AGE_MS,
  EPHEMERAL_KEY_MAX_USES,
  unwrapDataKey,
  wrapDataKey,
  x25519Target,
} from '../src/secrets/data-key-wrap';
import { generateX25519, X25519_KEY_BYTES, x25519PrivateKey } from '../src/secrets/x25519';

const pair = generateX25519();
const opener = { kind: 'x25519' as const, privateKey: x25519PrivateKey(pair.privateKey), publicRaw: pair.publicKey };
const ephemeralOf = (wrapped: Buffer) => wrapped.subarray(0, X25519_KEY_BYTES).toString('hex');

test('wraps share an ephemeral key for a while, and each opens for its own record only', () => {
  const target = x25519Target('k1', pair.publicKey);
  const now = 5_000_000;
  const first = { id: 'record-1', key: randomBytes(32) };
  const second = { id: 'record-2', key: randomBytes(32) };
  const wrappedFirst = wrapDataKey(target, first.id, first.key, now);
  const wrappedSecond = wrapDataKey(target, second.id, second.key, now + 10);
  expect(ephemeralOf(wrappedSecond)).toBe(ephemeralOf(wrappedFirst));
  expect(wrappedSecond.equals(wrappedFirst)).toBe(false);
  expect(unwrapDataKey(opener, 'k1', first.id, wrappedFirst).equals(first.key)).toBe(true);
  expect(unwrapDataKey(opener, 'k1', second.id, wrappedSecond).equals(second.key)).toBe(true);
  // The AAD binds a wrap to its record (and key id): swapped, neither opens.
  expect(() => unwrapDataKey(opener, 'k1', second.id, wrappedFirst)).toThrow();
  expect(() => unwrapDataKey(opener, 'k2', first.id, wrappedFirst)).toThrow();
  // A second later, a new ephemeral key.
  const later = wrapDataKey(target, 'record-3', randomBytes(32), now + EPHEMERAL_KEY_MAX_AGE_MS);
  expect(ephemeralOf(later)).not.toBe(ephemeralOf(wrappedFirst));
});

test('an ephemeral key seals at most EPHEMERAL_KEY_MAX_USES records', () => {
  const target = x25519Target('k1', pair.publicKey);
  const now = 9_000_000;
  const ephemeralKeys = new Set<string>();
  for (let i = 0; i <= EPHEMERAL_KEY_MAX_USES; i++) {
    const dataKey = randomBytes(32);
    const wrapped = wrapDataKey(target, `record-${i}`, dataKey, now);
    ephemeralKeys.add(ephemeralOf(wrapped));
    if (i % 256 === 0) expect(unwrapDataKey(opener, 'k1', `record-${i}`, wrapped).equals(dataKey)).toBe(true);
  }
  expect(ephemeralKeys.size).toBe(2);
});
