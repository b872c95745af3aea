/**
 * The worker's MAC over an accepted payment request (docs/security.md, attack 18): the same after
 * a jsonb round trip (keys reordered), bound to the purchase id and to every field, made only by a
 * ring that holds the key.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { canonicalJson, generateRingEntry, parseKeyRing, RequestMac } from '../src';

const ring = parseKeyRing(`${generateRingEntry('x2')},k1:${randomBytes(32).toString('base64')}`);
const mac = new RequestMac(ring);
const covered = { request: { message: { address: '0:ab', amount: '5' }, validUntil: 10 }, purchase: { amount: 50 } };

test('keys in another order (as jsonb returns them) give the same canonical JSON and the same MAC', () => {
  const reordered = {
    purchase: { amount: 50 },
    request: { validUntil: 10, message: { amount: '5', address: '0:ab' } },
  };
  expect(canonicalJson(reordered)).toBe(canonicalJson(covered));
  const id = randomUUID();
  expect(mac.verify(id, reordered, mac.sign(id, covered))).toBe(true);
});

test('another purchase, another field value, another ring or no tag: refused', () => {
  const id = randomUUID();
  const tag = mac.sign(id, covered);
  expect(tag.keyId).toBe('x2');
  expect(mac.verify(randomUUID(), covered, tag)).toBe(false);
  expect(mac.verify(id, { ...covered, purchase: { amount: 51 } }, tag)).toBe(false);
  expect(new RequestMac(parseKeyRing(generateRingEntry('x2'))).verify(id, covered, tag)).toBe(false);
  expect(mac.verify(id, covered, undefined)).toBe(false);
  expect(mac.verify(id, covered, { keyId: 'gone', value: tag.value })).toBe(false);
});

test('after a rotation, a request MACed with the older key verifies while that key is listed', () => {
  const beforeRotation = new RequestMac({ primaryId: 'k1', keys: ring.keys });
  const id = randomUUID();
  const tag = beforeRotation.sign(id, covered);
  expect(tag.keyId).toBe('k1');
  expect(mac.verify(id, covered, tag)).toBe(true);
  const withoutK1 = new RequestMac({ primaryId: 'x2', keys: new Map([['x2', ring.keys.get('x2')!]]) });
  expect(withoutK1.verify(id, covered, tag)).toBe(false);
});
