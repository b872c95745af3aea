/**
 * Exact price arithmetic in integer units: nanoGRAM (9 decimals) and micro-USD = USDT units
 * (6 decimals). No floats anywhere.
 *
 * Rounding rule. Prices Fragment states are taken as they are, never rounded: its TON price
 * (≤ 4 decimals) is exact in nanoGRAM, and its USD price (cents, or tenths of a cent for odd
 * Star counts: $0.765) is exact in USDT units. Only two things are ever computed here, and both
 * round UP — the direction Fragment itself rounds — so a computed figure is never below what
 * Fragment would charge for the same inputs, and every computed quote is flagged `derived`:
 *   1. a USD figure with more than 6 decimals is rounded up to 6 (never seen; protocol drift);
 *   2. a derived quote (Fragment could not be asked for that quantity) uses Fragment's rule:
 *      USD = per-star USD × N (rounded up to micro-USD), GRAM = ceil(USD ÷ tonRate, 4 dp).
 */
import { GRAM_DECIMALS, USDT_DECIMALS, formatUnits } from '@starsgate/domain';

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** `"1.70"` → `{ units: 170n, scale: 2 }`. Throws on anything but a plain non-negative decimal. */
export function parseDecimal(text: string): { units: bigint; scale: number } {
  const match = DECIMAL.exec(text.trim());
  if (!match) throw new RangeError(`not a plain decimal: ${JSON.stringify(text)}`);
  const fraction = match[2] ?? '';
  return { units: BigInt(`${match[1]}${fraction}`), scale: fraction.length };
}

export function ceilDiv(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new RangeError('denominator must be positive');
  if (numerator < 0n) throw new RangeError('numerator must be non-negative');
  return (numerator + denominator - 1n) / denominator;
}

/** Decimal text → integer units at `decimals`, rounding UP any digits beyond (rule 1). */
export function toUnitsCeil(text: string, decimals: number): bigint {
  const { units, scale } = parseDecimal(text);
  if (scale <= decimals) return units * 10n ** BigInt(decimals - scale);
  return ceilDiv(units, 10n ** BigInt(scale - decimals));
}

/** Fragment's USD price → USDT units (6 decimals). Exact for every price Fragment shows. */
export function usdToUsdtUnits(usd: string): bigint {
  return toUnitsCeil(usd, USDT_DECIMALS);
}

/** GRAM quotes carry at most 4 decimals (docs/fragment-protocol.md §9: ceil(USD ÷ tonRate, 4 dp)). */
const GRAM_QUOTE_STEP = 10n ** BigInt(GRAM_DECIMALS - 4);

/** Fragment's GRAM price for a USD amount at a USD-per-TON rate, in nanoGRAM (rule 2). */
export function gramNanoForUsd(usdMicro: bigint, tonRate: string): bigint {
  const rate = parseDecimal(tonRate);
  if (rate.units === 0n) throw new RangeError('tonRate must be positive');
  // TON = (usdMicro / 10^6) / (rate.units / 10^scale); in 10^-4 TON steps:
  //   usdMicro × 10^scale × 10^4 / (rate.units × 10^6), rounded up.
  const steps = ceilDiv(usdMicro * 10n ** BigInt(rate.scale) * 10_000n, rate.units * 1_000_000n);
  return steps * GRAM_QUOTE_STEP;
}

/** Priced linearly in USD (an `update_prices` product): `quantity` units from a reference price, rounded up to micro-USD. */
export function perUnitUsdMicro(referenceUsdMicro: bigint, referenceQuantity: number, quantity: number): bigint {
  return ceilDiv(referenceUsdMicro * BigInt(quantity), BigInt(referenceQuantity));
}

/** What `gram` whole GRAM are worth in USDT units at a USD-per-TON rate, rounded up to a unit. */
export function usdtUnitsForGram(gram: number, tonRate: string): bigint {
  const rate = parseDecimal(tonRate);
  return ceilDiv(BigInt(gram) * rate.units * 10n ** BigInt(USDT_DECIMALS), 10n ** BigInt(rate.scale));
}

export function formatGram(nano: bigint): string {
  return formatUnits(nano, GRAM_DECIMALS);
}

export function formatUsdt(units: bigint): string {
  return formatUnits(units, USDT_DECIMALS);
}
