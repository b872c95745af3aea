/**
 * Fragment's numbers as it writes them, the one reader of them all: init amounts, displayed
 * prices, link message amounts and history cells (docs/fragment-protocol.md §17.3).
 */
// The money module alone: the domain index also builds JSON-schema validators this adapter never uses.
import { parseUnits } from '@starsgate/domain';
import { FragmentError } from './errors';

const PLAIN = /^\d+(?:\.\d+)?$/;
/**
 * Thousands grouped by one separator, the same throughout: a comma (`1,000.5`, as Fragment writes
 * large amounts), or a space, no-break space, narrow no-break space, thin space or apostrophe. The
 * first group has 1–3 digits and no leading zero, every further group exactly 3; `.` is always the
 * decimal point. `1,00`, `1,0000`, `1.000,5`, `1,000 000`, `,100` and `100,` do not match.
 */
const GROUPED = /^[1-9]\d{0,2}([,\u0020\u00a0\u202f\u2009'])\d{3}(?:\1\d{3})*(?:\.\d+)?$/;

/**
 * `"1,000.5"` → `"1000.5"`, `"44.6172"` → `"44.6172"`: the plain decimal a number Fragment wrote
 * stands for, or undefined when it is not one unambiguously (any other separator use, a sign, an
 * exponent, letters).
 */
export function fragmentDecimal(text: string): string | undefined {
  const trimmed = text.trim();
  if (PLAIN.test(trimmed)) return trimmed;
  if (GROUPED.test(trimmed)) return trimmed.replace(/[^\d.]/g, '');
  return undefined;
}

/** `"1,000"` → 1000: a whole number Fragment wrote (history quantities), or undefined. */
export function fragmentInteger(text: string): number | undefined {
  const decimal = fragmentDecimal(text);
  if (decimal === undefined || decimal.includes('.')) return undefined;
  const value = Number(decimal);
  return Number.isSafeInteger(value) ? value : undefined;
}

/**
 * `parseAmountToNano("44.6172", 9)` → `44617200000n`, `parseAmountToNano("1,000.5", 9)` →
 * `1000500000000n`. A value that is not one of Fragment's numbers (fragmentDecimal), or has more
 * fractional digits than `decimals` (other than trailing zeros), is protocol drift and raises
 * UNEXPECTED_RESPONSE rather than being guessed at or rounded.
 */
export function parseAmountToNano(text: string, decimals: number): bigint {
  const decimal = fragmentDecimal(text);
  try {
    if (decimal === undefined) throw new RangeError('not a plain or thousands-grouped decimal');
    return parseUnits(decimal, decimals);
  } catch (error) {
    throw new FragmentError(
      'UNEXPECTED_RESPONSE',
      `Fragment amount ${JSON.stringify(text)} is not a decimal with ≤${decimals} places`,
      { cause: error },
    );
  }
}
