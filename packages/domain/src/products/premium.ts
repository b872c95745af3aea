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
  amountDescription: 'Premium: months, 3, 6 or 12',
  paymentMethods: ['gram', 'usdt'],
  label: ({ months }) => `Telegram Premium for ${premiumDuration(months)}`,
  inPriceList: true,
  ineligibleText: 'cannot receive Telegram Premium (a bot or a channel, not a personal account).',
} as const satisfies ProductDescription<'premium', 'months'>;
