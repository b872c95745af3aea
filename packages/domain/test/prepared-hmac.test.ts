import { createHmac, randomBytes } from 'node:crypto';
import { preparedHmacSha256 } from '../src/crypto/prepared-hmac';

test('equals createHmac for short, block-sized and long keys, and for any split of the message', () => {
  for (const keyBytes of [0, 1, 32, 63, 64, 65, 200]) {
    const key = randomBytes(keyBytes);
    const hmac = preparedHmacSha256(key);
    for (const parts of [[], ['a'], ['seed words here', '\u0000', 'mainnet', '\u0000'], [randomBytes(300), 'é']]) {
      const expected = createHmac('sha256', key);
      for (const part of parts) expected.update(part);
      expect(hmac(parts).equals(expected.digest())).toBe(true);
      // The prepared states are copied, never consumed: the same call gives the same answer.
      expect(hmac(parts).equals(hmac(parts))).toBe(true);
    }
  }
});
