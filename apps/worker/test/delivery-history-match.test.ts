/**
 * Matching a history read against orders: each order counts only the dated rows that name its
 * recipient and its quantity, as Fragment writes them (thousands separators, "1 year").
 */
import type { HistoryRow } from '@starsgate/fragment';
import { deliveriesNaming, refListed } from '../src/purchases/delivery/delivery-check';

const at = (iso: string) => Date.parse(iso);

const row = (recipient: string, quantity: number, iso?: string, ref?: string): HistoryRow => ({
  recipient,
  recipientText: `@${recipient}`,
  quantity,
  deliveredAt: iso ? at(iso) : Number.NaN,
  text: `@${recipient} | ${quantity.toLocaleString('en-US')} | 1.0 | ${iso ?? ''}`,
  ...(ref ? { ref } : {}),
});

// As the parser reads Fragment's rows: Recipient | Stars (or months) | Price | Date.
const history: HistoryRow[] = [
  row('alice', 1000, '2026-11-21T10:00:00Z'),
  row('alice', 100, '2026-11-21T10:01:00Z'),
  row('alice_b', 100, '2026-11-21T10:02:00Z'),
  row('alice', 100, '2026-11-21T10:05:00Z'),
  row('bob', 12, '2026-11-21T10:03:00Z'),
  row('bob', 3, '2026-11-21T10:04:00Z'),
  row('carol', 500),
];

it('counts the rows naming the recipient and the exact quantity', () => {
  const since = at('2026-11-21T00:00:00Z');
  expect(deliveriesNaming(history, { product: 'stars', username: '@alice', amount: 1000 }, since)).toBe(1);
  expect(deliveriesNaming(history, { product: 'stars', username: 'alice', amount: 100 }, since)).toBe(2);
  expect(deliveriesNaming(history, { product: 'stars', username: '@alice_b', amount: 100 }, since)).toBe(1);
  expect(deliveriesNaming(history, { product: 'stars', username: '@alice', amount: 10 }, since)).toBe(0);
  expect(deliveriesNaming(history, { product: 'premium', username: '@bob', amount: 12 }, since)).toBe(1);
  expect(deliveriesNaming(history, { product: 'premium', username: '@bob', amount: 3 }, since)).toBe(1);
  expect(deliveriesNaming(history, { product: 'premium', username: '@bob', amount: 6 }, since)).toBe(0);
  // A row without a readable date cannot vouch for a delivery after a given time.
  expect(deliveriesNaming(history, { product: 'stars', username: '@carol', amount: 500 }, since)).toBe(0);
});

it('counts only rows delivered since the given time', () => {
  expect(
    deliveriesNaming(history, { product: 'stars', username: '@alice', amount: 100 }, at('2026-11-21T10:03:00Z')),
  ).toBe(1);
  expect(
    deliveriesNaming(history, { product: 'stars', username: '@alice', amount: 100 }, at('2026-11-21T10:06:00Z')),
  ).toBe(0);
});

it('a row showing a Ref# names only the order with that Ref#, and vouches for it alone', () => {
  const since = at('2026-11-21T00:00:00Z');
  const rows = [row('dave', 50, '2026-11-21T10:00:00Z', 'Ab3dEf78XyZ'), row('dave', 50, '2026-11-21T10:01:00Z')];
  const order = { product: 'stars' as const, username: '@dave', amount: 50 };
  expect(refListed(rows, { ...order, ref: 'Ab3dEf78XyZ' }, since)).toBe(true);
  expect(refListed(rows, { ...order, ref: 'Other0000' }, since)).toBe(false);
  expect(deliveriesNaming(rows, { ...order, ref: 'Other0000' }, since)).toBe(1);
  expect(deliveriesNaming(rows, order, since)).toBe(2);
});
