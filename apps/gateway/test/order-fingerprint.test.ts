import { FingerprintKeys } from '@starsgate/db';
import { orderLineFromRequest, type Product } from '@starsgate/domain';
import { orderFingerprint } from '../src/intake/order-fingerprint';

const keys = new FingerprintKeys(`f1:${Buffer.alloc(32, 7).toString('base64')}`);

/** The fingerprint as intake computed it before order lines (the parts of commit d453142, verbatim). */
function fingerprintBeforeOrderLines(order: {
  route: string;
  product: string;
  username: string;
  amount: number;
  paymentMethod: string;
  seed: string;
}): string | null {
  return keys.fingerprint([
    order.route,
    order.product,
    order.username.toLowerCase(),
    String(order.amount),
    order.paymentMethod,
    order.seed,
    '',
    '',
  ]);
}

describe('idempotency fingerprint over the order line', () => {
  const cases: Array<[Product, number, string]> = [
    ['stars', 50, 'usdt'],
    ['stars', 1_000_000, 'gram'],
    ['premium', 12, 'gram'],
    ['premium', 3, 'usdt'],
    ['gram', 25, 'gram'],
  ];

  it.each(cases)(
    'a stored %s order (amount %d, %s) keeps the fingerprint it was stored with',
    (product, amount, method) => {
      for (const route of ['purchases', 'checkouts'] as const) {
        const before = fingerprintBeforeOrderLines({
          route,
          product,
          username: '@Alice_1',
          amount,
          paymentMethod: method,
          seed: 'payer seed',
        });
        const now = orderFingerprint(keys, {
          route,
          line: orderLineFromRequest(product, '@Alice_1', { amount }),
          paymentMethod: method,
          seed: 'payer seed',
        });
        expect(now).toBe(before);
      }
    },
  );

  it('is pinned: the digest a stored Stars purchase carries today', () => {
    const line = orderLineFromRequest('stars', '@alice', { amount: 50 });
    expect(orderFingerprint(keys, { route: 'purchases', line, paymentMethod: 'gram', seed: 'payer seed' })).toBe(
      '5e004474e8c8647e61fb450a17df12b621f69bbfd91fddf7cfd95f843485b0b9',
    );
  });

  it('differs when a quantity, the recipient or the product differs', () => {
    const base = { route: 'purchases' as const, paymentMethod: 'gram', seed: 'payer seed' };
    const of = (product: Product, username: string, amount: number) =>
      orderFingerprint(keys, { ...base, line: orderLineFromRequest(product, username, { amount }) });
    const reference = of('premium', '@alice', 6);
    expect(of('premium', '@ALICE', 6)).toBe(reference);
    expect(of('premium', '@alice', 12)).not.toBe(reference);
    expect(of('premium', '@bob', 6)).not.toBe(reference);
    expect(of('stars', '@alice', 6)).not.toBe(reference);
  });
});
