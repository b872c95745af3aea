import { PREMIUM_DEFAULTS, PREMIUM_DRIFT, PREMIUM_FAULT_DEFAULTS, premiumDecimals } from './premium-config';
import type { PremiumConfig, PremiumFaults, PremiumRecipientFlags } from './premium-config';
import { STARS_DEFAULTS, STARS_DRIFT, starsDecimals, validateStarsConfig } from './stars-config';
import type { StarsConfig, StarsRecipientFlags } from './stars-config';

/** Every product's settings, merged flat into the simulator's config (config.ts). */
export type ProductConfig = StarsConfig & PremiumConfig;
/** Every product's state of a simulated account (directory.ts). */
export type ProductRecipientFlags = StarsRecipientFlags & PremiumRecipientFlags;
/** Every product's faults, merged flat into the simulator's faults. */
export type ProductFaults = PremiumFaults;
/** How a product's page may drift from what Fragment shows today (`doctor --contract` must notice). */
export type ProductDrift = typeof STARS_DRIFT | typeof PREMIUM_DRIFT;

export const PRODUCT_DRIFTS: readonly ProductDrift[] = [STARS_DRIFT, PREMIUM_DRIFT];

export function productConfigDefaults(): ProductConfig {
  return structuredClone({ ...STARS_DEFAULTS, ...PREMIUM_DEFAULTS });
}

export function productFaultDefaults(): ProductFaults {
  return { ...PREMIUM_FAULT_DEFAULTS };
}

/** The products' decimal-string settings by name, for the config's checks. */
export function productDecimals(config: ProductConfig): Array<readonly [string, string]> {
  return [...starsDecimals(config), ...premiumDecimals(config)];
}

/** Throws with a readable message on a product setting out of range. */
export function validateProductConfig(config: ProductConfig): void {
  validateStarsConfig(config);
}
