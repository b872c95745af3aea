import type { ProductDescription } from './product-description';

export const GRAM_TOPUP_MIN = 1;
export const GRAM_TOPUP_MAX = 1_000_000;

/**
 * GRAM top-up: whole GRAM gifted to a Telegram user's own TON balance (`fragment.com/ads/topup`,
 * docs/fragment-protocol.md §18). Fragment sends no payment method for it: GRAM only.
 */
export const gram = {
  name: 'gram',
  title: 'GRAM top-up',
  recipientKind: 'user',
  pricing: 'face_value',
  amountQuantity: 'gram',
  quantities: [
    {
      quantity: 'gram',
      requestField: 'amount',
      rule: { kind: 'range', minimum: GRAM_TOPUP_MIN, maximum: GRAM_TOPUP_MAX },
    },
  ],
  example: { gram: 10 },
  amountDescription: 'GRAM top-up: whole GRAM, 1 to 1,000,000',
  paymentMethods: ['gram'],
  label: ({ gram: whole }) => `${whole} GRAM top-up`,
  rejections: [],
  ineligibleText: 'cannot receive a GRAM top-up (a bot or a channel, not a personal account).',
} as const satisfies ProductDescription<'gram', 'gram'>;
