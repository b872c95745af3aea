import { PREMIUM_MONTHS, premiumDuration } from './premium';
import type { ProductDescription } from './product-description';

export const GIVEAWAY_WINNERS_MIN = 1;
export const GIVEAWAY_WINNERS_MAX = 24_000;

/**
 * Premium giveaway: Telegram Premium for `winners` subscribers of a channel, for `months` each
 * (`fragment.com/premium/giveaway`, docs/fragment-protocol.md §22). The recipient is the channel;
 * the legacy `amount` shows the winners.
 */
export const premiumGiveaway = {
  name: 'premium_giveaway',
  title: 'Telegram Premium giveaway',
  recipientKind: 'channel',
  pricing: 'quoted',
  amountQuantity: 'winners',
  quantities: [
    {
      quantity: 'winners',
      requestField: 'winners',
      rule: { kind: 'range', minimum: GIVEAWAY_WINNERS_MIN, maximum: GIVEAWAY_WINNERS_MAX },
    },
    { quantity: 'months', requestField: 'months', rule: { kind: 'choices', values: PREMIUM_MONTHS } },
  ],
  example: { winners: 10, months: 3 },
  amountDescription:
    'Premium giveaway: `winners` 1 to 24,000 and `months` 3, 6 or 12 instead of amount (amount shows the winners)',
  paymentMethods: ['gram', 'usdt'],
  label: ({ winners, months }) =>
    `Telegram Premium for ${premiumDuration(months)} for ${winners} ${winners === 1 ? 'winner' : 'winners'}`,
  rejections: [],
  ineligibleText: 'cannot receive a Premium giveaway (a user or a bot, not a channel).',
} as const satisfies ProductDescription<'premium_giveaway', 'winners' | 'months'>;
