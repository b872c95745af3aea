import type { PremiumMonths } from '@starsgate/domain';
import { parseDecimal } from '../decimal';
import { USD_SCALE } from '../pricing';

/** The Premium pages' settings in the simulator's config (flat keys, as the admin API takes them). */
export interface PremiumConfig {
  /** USD per Premium gift, by months. */
  premiumPricesUsd: { '3': string; '6': string; '12': string };
}

export interface PremiumFaults {
  /** Where "already subscribed to Telegram Premium" is reported. */
  premiumActiveAt: 'search' | 'init' | 'both';
}

/** A simulated account's Premium state (directory.ts). */
export interface PremiumRecipientFlags {
  /** Already subscribed to Telegram Premium. */
  hasPremium?: boolean;
}

export const PREMIUM_DEFAULTS: PremiumConfig = { premiumPricesUsd: { '3': '11.99', '6': '15.99', '12': '28.99' } };
export const PREMIUM_FAULT_DEFAULTS: PremiumFaults = { premiumActiveAt: 'both' };

/** The Premium gift page drifts: other months than 3, 6 and 12. */
export const PREMIUM_DRIFT = 'premiumMonths';

export const PremiumErrors = {
  active: 'This account is already subscribed to Telegram Premium.',
} as const;

export function premiumDecimals(config: PremiumConfig): Array<readonly [string, string]> {
  return (['3', '6', '12'] as const).map((months) => [`premiumPricesUsd.${months}`, config.premiumPricesUsd[months]]);
}

/** The USD price of one Premium gift of `months`, in micro-dollars. */
export function premiumUsdMicro(config: PremiumConfig, months: PremiumMonths): bigint {
  return parseDecimal(config.premiumPricesUsd[String(months) as '3' | '6' | '12'], USD_SCALE);
}
