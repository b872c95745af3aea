import { GRAM_DECIMALS, USDT_DECIMALS } from '../money/units';

/**
 * Every money field on the wire: an exact, non-negative decimal string (never a JSON number, which a
 * client would parse into a float). `format: decimal` marks it for code generators and readers; the
 * pattern is what ajv enforces. `maxDecimals` bounds the fraction to the currency's precision.
 */
export function decimalMoney(description: string, maxDecimals?: number) {
  const fraction = maxDecimals === undefined ? '\\.[0-9]+' : `\\.[0-9]{1,${maxDecimals}}`;
  return { type: 'string', format: 'decimal', pattern: `^[0-9]+(${fraction})?$`, description } as const;
}

/** Base units (nanoGRAM, micro-USDT) as a decimal string of digits: exact beyond 2^53. */
export function baseUnitMoney(description: string) {
  return { type: 'string', format: 'decimal', pattern: '^[0-9]+$', description } as const;
}

export const gramAmount = (description: string) => decimalMoney(description, GRAM_DECIMALS);
export const usdtAmount = (description: string) => decimalMoney(description, USDT_DECIMALS);

/** The `decimal` format ajv checks: the same rule as the patterns above. */
export const DECIMAL_FORMAT = /^[0-9]+(\.[0-9]+)?$/;
