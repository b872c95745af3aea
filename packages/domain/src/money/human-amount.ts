import { formatUnits, GRAM_DECIMALS, USDT_DECIMALS } from './units';

const DECIMALS_OF = { GRAM: GRAM_DECIMALS, USDT: USDT_DECIMALS } as const;
export type Coin = keyof typeof DECIMALS_OF;

/** The coin of a stored currency label (`gram`, `TON`, `usdt`), or null when it is not one starsgate pays with. */
export function coinOf(currency: string | null | undefined): Coin | null {
  const label = currency?.toUpperCase();
  if (label === 'GRAM' || label === 'TON') return 'GRAM';
  if (label === 'USDT') return 'USDT';
  return null;
}

/**
 * Base units as people read them: `humanAmount('441200000', 'GRAM')` → `"0.4412 GRAM"`,
 * `humanAmount(750000n, 'USDT')` → `"0.75 USDT"`. Null when the value is not a base-unit integer.
 */
export function humanAmount(baseUnits: bigint | string | null | undefined, coin: Coin): string | null {
  if (baseUnits === null || baseUnits === undefined) return null;
  if (typeof baseUnits === 'string' && !/^[0-9]+$/.test(baseUnits)) return null;
  return `${formatUnits(BigInt(baseUnits), DECIMALS_OF[coin])} ${coin}`;
}
