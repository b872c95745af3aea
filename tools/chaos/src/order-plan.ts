/**
 * What the order system buys: stars and premium, GRAM and USDT, spread over the test wallets (many
 * purchases share each wallet) and over recipients; a few orders that Fragment refuses (Premium
 * already active, Stars blocked) end `failed` on purpose.
 */
import type { SeededRandom } from './random';

export interface OrderSpec {
  product: 'stars' | 'premium';
  amount: number;
  payment_method: 'gram' | 'usdt';
  username: string;
}

export const CHAOS_RECIPIENTS = Array.from({ length: 40 }, (_, i) => `chaos_user_${String(i + 1).padStart(2, '0')}`);

/** The simulator's recipient directory for the run: the chaos users and two that Fragment refuses. */
export function chaosDirectory(): Array<Record<string, unknown>> {
  return [
    ...CHAOS_RECIPIENTS.map((username) => ({
      username,
      name: username.replace('_', ' '),
      kind: 'user',
      description: 'chaos run recipient',
    })),
    { username: 'premium_pat', name: 'Pat Premium', kind: 'user', hasPremium: true, description: 'has Premium' },
    { username: 'frozen_fay', name: 'Fay Frost', kind: 'user', starsBlocked: true, description: 'Stars blocked' },
  ];
}

const STARS = [50, 50, 100, 100, 250, 500, 1000, 2500];
const MONTHS = [3, 6, 12];

export function planOrder(random: SeededRandom): OrderSpec {
  const product = random.chance(0.7) ? 'stars' : 'premium';
  const refused = random.chance(0.03);
  const username = refused ? (product === 'premium' ? 'premium_pat' : 'frozen_fay') : random.pick(CHAOS_RECIPIENTS);
  return {
    product,
    amount: product === 'stars' ? random.pick(STARS) : random.pick(MONTHS),
    payment_method: random.chance(0.5) ? 'gram' : 'usdt',
    username: `@${username}`,
  };
}
