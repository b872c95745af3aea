import type { ProductDescription } from './product-description';

export const PREMIUM_MONTHS = [3, 6, 12] as const;
export type PremiumMonths = (typeof PREMIUM_MONTHS)[number];

export const premium = {
  name: 'premium',
  title: 'Telegram Premium',
  amount: { kind: 'choices', values: PREMIUM_MONTHS },
  amountDescription: 'Premium: months, 3, 6 or 12',
  paymentMethods: ['gram', 'usdt'],
  label: (months) => (months === 12 ? 'Telegram Premium for 1 year' : `Telegram Premium for ${months} months`),
  ineligibleText: 'cannot receive Telegram Premium (a bot or a channel, not a personal account).',
} as const satisfies ProductDescription<'premium'>;
