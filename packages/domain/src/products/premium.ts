import type { ProductDescription } from './product-description';

export const PREMIUM_MONTHS = [3, 6, 12] as const;
export type PremiumMonths = (typeof PREMIUM_MONTHS)[number];

/** `3 months`, `6 months`, `1 year`: how Telegram names a Premium duration. */
export function premiumDuration(months: number): string {
  return months === 12 ? '1 year' : `${months} months`;
}

export const premium = {
  name: 'premium',
  title: 'Telegram Premium',
  recipientKind: 'user',
  pricing: 'quoted',
  amountQuantity: 'months',
  quantities: [{ quantity: 'months', requestField: 'amount', rule: { kind: 'choices', values: PREMIUM_MONTHS } }],
  example: { months: 6 },
  amountDescription: 'Premium: months, 3, 6 or 12',
  paymentMethods: ['gram', 'usdt'],
  label: ({ months }) => `Telegram Premium for ${premiumDuration(months)}`,
  priceList: { quantities: ['3', '6', '12'], summary: 'Premium 3/6/12 months' },
  rejections: [
    {
      code: 'PREMIUM_ALREADY_ACTIVE',
      status: 422,
      message: 'This user already has Telegram Premium.',
      action: 'Offer Stars instead, or try again after the subscription ends.',
      availability: {
        message: (username) => `${username} already has Telegram Premium, so it cannot be gifted now.`,
        action: 'Keep payment disabled; offer Stars instead, or gift Premium after the subscription ends.',
      },
    },
  ],
  ineligibleText: 'cannot receive Telegram Premium (a bot or a channel, not a personal account).',
} as const satisfies ProductDescription<'premium', 'months'>;
