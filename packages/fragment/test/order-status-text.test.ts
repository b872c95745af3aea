import { historyKey, orderHistoryKeys } from '../src/history-matching';
import { statusTextNamesOrder } from '../src/order-status-text';

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
    // GRAM top-up: no capture of its screen; the amount with its coin under either name (§18).
    ['25 TON were sent to @alice.', { product: 'gram', username: '@alice', amount: 25 }, true],
    ['1,000 GRAM were sent to @alice.', { product: 'gram', username: '@alice', amount: 1000 }, true],
    ['125 TON were sent to @alice.', { product: 'gram', username: '@alice', amount: 25 }, false],
    ['0.25 TON were sent to @alice.', { product: 'gram', username: '@alice', amount: 25 }, false],
    ['25 Telegram Stars were sent to @alice.', { product: 'gram', username: '@alice', amount: 25 }, false],
  ] as const)('%j names %j: %s', (text, order, expected) => {
    expect(statusTextNamesOrder(text, order)).toBe(expected);
  });
});

describe('historyKey and orderHistoryKeys', () => {
  it.each([
    [{ recipient: 'alice', quantity: 1000 }, { product: 'stars', username: '@Alice', amount: 1000 }, true],
    [{ recipient: 'bob', quantity: 12 }, { product: 'premium', username: 'bob', amount: 12 }, true],
    [{ recipient: 'alice_2', quantity: 150 }, { product: 'stars', username: '@alice', amount: 150 }, false],
    [{ recipient: 'alice', quantity: 15 }, { product: 'stars', username: '@alice', amount: 150 }, false],
  ] as const)('files row %j under a key of %j: %s', (row, order, expected) => {
    expect(orderHistoryKeys(order).includes(historyKey(row)!)).toBe(expected);
  });

  it('files a row without an @handle under no key', () => {
    expect(historyKey({ quantity: 50 })).toBeUndefined();
  });
});
