/**
 * Matching a history read against orders: each order counts only the dated rows that name its
 * recipient and its quantity, as Fragment writes them (thousands separators, "1 year").
 */
import type { HistoryRow } from '@starsgate/fragment';
import { deliveriesNaming } from '../src/purchases/state-machine/delivery-check';

const at = (iso: string) => Date.parse(iso);

const history: HistoryRow[] = [
  { text: '1,000 Telegram Stars were sent to @alice. 21 Nov 2026 at 10:00', deliveredAt: at('2026-11-21T10:00:00Z') },
  { text: '100 Telegram Stars were sent to @alice. 21 Nov 2026 at 10:01', deliveredAt: at('2026-11-21T10:01:00Z') },
  { text: '100 Telegram Stars were sent to @alice_b. 21 Nov 2026 at 10:02', deliveredAt: at('2026-11-21T10:02:00Z') },
  { text: '100 Telegram Stars were sent to @alice. 21 Nov 2026 at 10:05', deliveredAt: at('2026-11-21T10:05:00Z') },
  {
    text: 'Telegram Premium for 1 year was sent to @bob. 21 Nov 2026 at 10:03',
    deliveredAt: at('2026-11-21T10:03:00Z'),
  },
  {
    text: 'Telegram Premium for 3 months was sent to @bob. 21 Nov 2026 at 10:04',
    deliveredAt: at('2026-11-21T10:04:00Z'),
  },
  { text: '500 Telegram Stars were sent to @carol. (no date)' },
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
  // An undated row cannot vouch for a delivery after a given time.
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
