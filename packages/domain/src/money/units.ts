/**
 * Exact conversion between integer base units (bigint: nanoGRAM, micro-USDT, ...) and decimal
 * strings. Money never passes through a JavaScript number.
 */

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

function checkDecimals(decimals: number): void {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 77) {
    throw new RangeError(`decimals must be an integer from 0 to 77, got ${decimals}`);
  }
}

/**
 * `formatUnits(1500000000n, 9)` → `"1.5"`. Trailing fractional zeros are dropped; a whole amount
 * has no decimal point (`"2"`). Negative values keep their sign.
 */
export function formatUnits(value: bigint, decimals: number): string {
  checkDecimals(decimals);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const base = 10n ** BigInt(decimals);
  const whole = abs / base;
  const fraction = decimals === 0 ? '' : (abs % base).toString().padStart(decimals, '0').replace(/0+$/, '');
  const text = fraction.length > 0 ? `${whole}.${fraction}` : whole.toString();
  return negative ? `-${text}` : text;
}

/**
 * `parseUnits("1.5", 9)` → `1500000000n`. Accepts only plain non-negative decimals (`"12"`,
 * `"0.000001"`); no sign, exponent, spaces or grouping. More fractional digits than `decimals`
 * throw unless the extra digits are zeros (nothing is ever rounded).
 */
export function parseUnits(text: string, decimals: number): bigint {
  checkDecimals(decimals);
  const match = DECIMAL.exec(text);
  if (!match) throw new RangeError('not a plain non-negative decimal number');
  const whole = match[1] ?? '0';
  let fraction = match[2] ?? '';
  if (fraction.length > decimals) {
    if (/[^0]/.test(fraction.slice(decimals))) {
      throw new RangeError(`more than ${decimals} fractional digits`);
    }
    fraction = fraction.slice(0, decimals);
  }
  return BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
}

/** Decimals of the coins starsgate pays with. */
export const GRAM_DECIMALS = 9;
export const USDT_DECIMALS = 6;
