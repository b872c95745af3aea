import { normalizeStatusText, orderKeys, orderKeysNamedIn, statusTextNamesOrder } from '../src/order-status-text';

describe('statusTextNamesOrder', () => {
  it.each([
    ['50 Telegram Stars were sent to @alice.', { product: 'stars', username: '@alice', amount: 50 }, true],
    [
      '1,000,000 Telegram Stars were sent to @Alice.',
      { product: 'stars', username: '@alice', amount: 1_000_000 },
      true,
    ],
    ['150 Telegram Stars were sent to @alice.', { product: 'stars', username: '@alice', amount: 50 }, false],
    ['50 Telegram Stars were sent to @alice_2.', { product: 'stars', username: '@alice', amount: 50 }, false],
    ['50 Telegram Stars were sent to @bob.', { product: 'stars', username: '@alice', amount: 50 }, false],
    ['Telegram Premium for 1 year were sent to @bob.', { product: 'premium', username: '@bob', amount: 12 }, true],
    ['Telegram Premium for 6 months were sent to @bob.', { product: 'premium', username: '@bob', amount: 3 }, false],
    ['Telegram Premium for 3 months were sent to @bob.', { product: 'premium', username: '@bob', amount: 3 }, true],
    ['', { product: 'stars', username: '@alice', amount: 50 }, false],
  ] as const)('%j names %j: %s', (text, order, expected) => {
    expect(statusTextNamesOrder(text, order)).toBe(expected);
  });
});

describe('orderKeysNamedIn and orderKeys', () => {
  it.each([
    ['1,000 Telegram Stars were sent to @Alice.', { product: 'stars', username: '@alice', amount: 1000 }],
    ['Telegram Premium for 1 year were sent to @bob.', { product: 'premium', username: 'bob', amount: 12 }],
    ['Telegram Premium for 3 months were sent to @bob.', { product: 'premium', username: '@bob', amount: 3 }],
  ] as const)('files %j under a key of %j', (text, order) => {
    const keys = orderKeysNamedIn(normalizeStatusText(text));
    expect(orderKeys(order).some((key) => keys.includes(key))).toBe(true);
  });

  it('files a text under no key of an order it does not name', () => {
    const keys = orderKeysNamedIn(normalizeStatusText('150 Telegram Stars were sent to @alice_2.'));
    expect(keys).toEqual(['alice_2#150']);
    expect(orderKeys({ product: 'stars', username: '@alice', amount: 150 }).some((key) => keys.includes(key))).toBe(
      false,
    );
  });
});
