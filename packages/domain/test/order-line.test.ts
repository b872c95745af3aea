import {
  canonicalQuantities,
  lineAmount,
  orderLineFromRequest,
  orderLineLabel,
  productDescription,
  PRODUCTS,
  rowQuantities,
} from '../src';

describe('order line', () => {
  it("reads each product's quantities from its request fields (amount for the one-quantity products)", () => {
    expect(orderLineFromRequest('stars', '@Alice', { amount: 50 })).toEqual({
      product: 'stars',
      recipient: '@Alice',
      quantities: { stars: 50 },
    });
    expect(orderLineFromRequest('premium', '@bob', { amount: 6 }).quantities).toEqual({ months: 6 });
    expect(orderLineFromRequest('gram', '@bob', { amount: 10 }).quantities).toEqual({ gram: 10 });
  });

  it('keeps the legacy amount: the quantity each product shows there', () => {
    for (const product of PRODUCTS) {
      const line = orderLineFromRequest(product, '@a', { amount: 12, winners: 12, months: 12 });
      expect(lineAmount(line)).toBe(12);
      expect(rowQuantities({ product, amount: 12, orderLine: line })).toEqual(line.quantities);
    }
  });

  it('derives the quantities of a row stored before order lines from amount', () => {
    expect(rowQuantities({ product: 'stars', amount: 70, orderLine: null })).toEqual({ stars: 70 });
    expect(rowQuantities({ product: 'premium', amount: 3 })).toEqual({ months: 3 });
    expect(() => rowQuantities({ product: 'gift_card', amount: 3 })).toThrow(/unknown product/);
  });

  it('canonical quantities of a one-quantity product are the bare amount fingerprints were made with', () => {
    expect(canonicalQuantities({ product: 'stars', quantities: { stars: 1000 } })).toBe('1000');
    expect(canonicalQuantities({ product: 'premium', quantities: { months: 12 } })).toBe('12');
    expect(canonicalQuantities({ product: 'gram', quantities: { gram: 5 } })).toBe('5');
  });

  it('labels a line through its product pack, and every pack names its amount quantity among its quantities', () => {
    expect(orderLineLabel({ product: 'premium', quantities: { months: 12 } })).toBe('Telegram Premium for 1 year');
    expect(orderLineLabel({ product: 'stars', quantities: { stars: 1 } })).toBe('1 Telegram Star');
    for (const product of PRODUCTS) {
      const description = productDescription(product);
      expect(description.quantities.map((field) => field.quantity)).toContain(description.amountQuantity);
    }
  });
});
