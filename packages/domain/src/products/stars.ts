import type { ProductDescription } from './product-description';

export const STARS_MIN = 50;
export const STARS_MAX = 1_000_000;

export const stars = {
  name: 'stars',
  title: 'Telegram Stars',
  recipientKind: 'user',
  pricing: 'quoted',
  amountQuantity: 'stars',
  quantities: [
    { quantity: 'stars', requestField: 'amount', rule: { kind: 'range', minimum: STARS_MIN, maximum: STARS_MAX } },
  ],
  example: { stars: 50 },
  amountDescription: 'Stars: 50 to 1,000,000',
  paymentMethods: ['gram', 'usdt'],
  label: ({ stars: count }) => `${count} Telegram ${count === 1 ? 'Star' : 'Stars'}`,
  rejections: [],
  priceList: {
    quantities: ['50'],
    summary: '50 Stars',
    description: 'Stars are priced linearly in USD; ask /api/v1/prices/quote for an exact quantity.',
  },
  ineligibleText:
    'cannot receive Telegram Stars now (a bot, a channel, or an account that cannot receive Stars at the moment).',
} as const satisfies ProductDescription<'stars', 'stars'>;
