import {
  acceptsAmount,
  AVAILABILITY_CODES,
  describeAvailability,
  ERROR_CATALOGUE,
  PriceListSchema,
  productRejection,
  AvailabilityCheckRequestSchema,
  canonicalUsername,
  createValidator,
  IDEMPOTENCY_KEY_PATTERN,
  isValidAmount,
  normalizePaymentMethod,
  PREMIUM_MONTHS,
  PRODUCT_REGISTRY,
  PRODUCTS,
  productDescription,
  productLabel,
  STARS_MAX,
  STARS_MIN,
  USERNAME_PATTERN,
} from '../src';

describe('product registry (the spec limits)', () => {
  it('accepts whole Stars between the limits and only the Premium durations', () => {
    expect(isValidAmount('stars', STARS_MIN)).toBe(true);
    expect(isValidAmount('stars', STARS_MAX)).toBe(true);
    expect(isValidAmount('stars', STARS_MIN - 1)).toBe(false);
    expect(isValidAmount('stars', STARS_MAX + 1)).toBe(false);
    expect(isValidAmount('stars', 50.5)).toBe(false);
    for (const months of PREMIUM_MONTHS) expect(isValidAmount('premium', months)).toBe(true);
    for (const months of [0, 1, 4, 24, 6.5]) expect(isValidAmount('premium', months)).toBe(false);
  });

  it('stores payment methods in their canonical form and refuses unknown spellings', () => {
    expect(normalizePaymentMethod('gram')).toBe('gram');
    expect(normalizePaymentMethod('ton')).toBe('gram');
    expect(normalizePaymentMethod('usdt_ton')).toBe('usdt');
    expect(normalizePaymentMethod('usdt_gram')).toBe('usdt');
    expect(normalizePaymentMethod('btc')).toBeUndefined();
    // Not an inherited property of the alias table.
    expect(normalizePaymentMethod('toString')).toBeUndefined();
  });

  it('username and idempotency key patterns', () => {
    const username = new RegExp(USERNAME_PATTERN);
    expect(username.test('@alice_99')).toBe(true);
    expect(username.test('alice')).toBe(false);
    expect(username.test(`@${'a'.repeat(33)}`)).toBe(false);
    expect(canonicalUsername('@Alice')).toBe('@alice');
    const key = new RegExp(IDEMPOTENCY_KEY_PATTERN);
    expect(key.test('order-1 ~')).toBe(true);
    expect(key.test('')).toBe(false);
    expect(key.test('x'.repeat(129))).toBe(false);
    expect(key.test('tab\there')).toBe(false);
  });

  it('labels products as a person reads them', () => {
    expect(productLabel('stars', 50)).toBe('50 Telegram Stars');
    expect(productLabel('stars', 1)).toBe('1 Telegram Star');
    expect(productLabel('premium', 6)).toBe('Telegram Premium for 6 months');
    expect(productLabel('premium', 12)).toBe('Telegram Premium for 1 year');
  });

  it('every product is described once, and the request schema holds each amount rule exactly', () => {
    const check = createValidator<unknown>(AvailabilityCheckRequestSchema);
    const accepted = (product: string, amount: number, field = 'amount', others: Record<string, number> = {}) => {
      try {
        check({ product, username: '@alice', ...others, [field]: amount, payment_method: 'gram' });
        return true;
      } catch {
        return false;
      }
    };
    expect(PRODUCTS).toEqual(Object.keys(PRODUCT_REGISTRY));
    for (const product of PRODUCTS) {
      const { quantities, amountQuantity, name, paymentMethods } = productDescription(product);
      expect(name).toBe(product);
      expect(paymentMethods.length).toBeGreaterThan(0);
      // Every other quantity at a valid value, so a probe tests its own field alone.
      const valid = Object.fromEntries(
        quantities.map((field) => [
          field.requestField,
          field.rule.kind === 'range' ? field.rule.minimum : field.rule.values[0]!,
        ]),
      );
      for (const { quantity, requestField, rule } of quantities) {
        const probes =
          rule.kind === 'range'
            ? [rule.minimum - 1, rule.minimum, rule.minimum + 1, rule.maximum - 1, rule.maximum, rule.maximum + 1]
            : [0, ...rule.values.flatMap((value: number) => [value - 1, value, value + 1])];
        for (const amount of probes) {
          const expected = acceptsAmount(rule, amount);
          expect({ product, amount, schema: accepted(product, amount, requestField, valid) }).toEqual({
            product,
            amount,
            schema: expected,
          });
          if (quantity === amountQuantity) expect(isValidAmount(product, amount)).toBe(expected);
        }
      }
    }
    expect(accepted('gift_card', 50)).toBe(false);
  });
});

describe('product refusals and the price list, declared by the packs', () => {
  test("a pack's refusal is an error code and an availability outcome, texts unchanged", () => {
    expect(ERROR_CATALOGUE.PREMIUM_ALREADY_ACTIVE).toEqual({
      status: 422,
      message: 'This user already has Telegram Premium.',
      action: 'Offer Stars instead, or try again after the subscription ends.',
    });
    expect(AVAILABILITY_CODES).toEqual([
      'AVAILABLE',
      'RECIPIENT_NOT_FOUND',
      'RECIPIENT_INELIGIBLE',
      'PREMIUM_ALREADY_ACTIVE',
      'PAYMENT_METHOD_UNAVAILABLE',
    ]);
    const subject = { product: 'premium', username: '@alice', amount: 3, payment_method: 'gram' } as const;
    expect(describeAvailability('PREMIUM_ALREADY_ACTIVE', subject)).toEqual({
      message: '@alice already has Telegram Premium, so it cannot be gifted now.',
      action:
        'Keep payment disabled; offer Stars instead, or gift Premium after the subscription ends. The check is point-in-time: repeat it whenever product, username, amount or payment method changes.',
    });
    expect(() => productRejection('NO_SUCH_REFUSAL')).toThrow(/NO_SUCH_REFUSAL/);
  });

  test('GET /api/v1/prices keeps its shape, built from the packs listed in it', () => {
    const pair = { $ref: '#/components/schemas/PricePair' };
    expect(PriceListSchema.description).toBe(
      'Reference prices: 50 Stars and Premium 3/6/12 months. Informational, not reserved.',
    );
    expect(PriceListSchema.required).toEqual(['stars', 'premium', 'stale', 'updated_at']);
    expect(PriceListSchema.properties).toMatchObject({
      stars: {
        type: 'object',
        required: ['50'],
        additionalProperties: false,
        properties: { '50': pair },
        description: 'Stars are priced linearly in USD; ask /api/v1/prices/quote for an exact quantity.',
      },
      premium: {
        type: 'object',
        required: ['3', '6', '12'],
        additionalProperties: false,
        properties: { '3': pair, '6': pair, '12': pair },
      },
    });
    expect(Object.keys(PriceListSchema.properties)).toEqual(['stars', 'premium', 'stale', 'updated_at']);
  });
});
