import { parseDecimal } from '../decimal';
import { USD_SCALE } from '../pricing';

/** The Stars page's settings in the simulator's config (flat keys, as the admin API takes them). */
export interface StarsConfig {
  /** USD per star, decimal string (≤ 6 decimals). */
  starPriceUsd: string;
  starsMin: number;
  starsMax: number;
}

/** A simulated account's Stars state (directory.ts). */
export interface StarsRecipientFlags {
  /** Cannot receive Stars at this moment. */
  starsBlocked?: boolean;
}

export const STARS_DEFAULTS: StarsConfig = { starPriceUsd: '0.015', starsMin: 50, starsMax: 1_000_000 };

/** The Stars page drifts: other limits in the quantity field's placeholder. */
export const STARS_DRIFT = 'starsLimits';

export const StarsErrors = {
  blocked: 'You can&#39;t gift Telegram Stars to this account at this moment.',
  // Never captured from Fragment (docs/fragment-protocol.md §16); the simulator's choice.
  invalidQuantity: (min: number, max: number) =>
    `Please enter a number of Stars between ${min.toLocaleString('en-US')} and ${max.toLocaleString('en-US')}.`,
} as const;

export function starsDecimals(config: StarsConfig): Array<readonly [string, string]> {
  return [['starPriceUsd', config.starPriceUsd]];
}

export function validateStarsConfig(config: StarsConfig): void {
  if (!(config.starsMin >= 1 && config.starsMax >= config.starsMin)) throw new Error('starsMin/starsMax out of range');
}

/** The USD price of `quantity` Stars, in micro-dollars. */
export function starsUsdMicro(config: StarsConfig, quantity: number): bigint {
  return parseDecimal(config.starPriceUsd, USD_SCALE) * BigInt(quantity);
}
