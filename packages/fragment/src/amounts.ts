/** Exact conversion of Fragment's decimal strings to integer units (no floats, no rounding). */
// The money module alone: the domain index also builds JSON-schema validators this adapter never uses.
import { parseUnits } from '@starsgate/domain';
import { FragmentError } from './errors';

/**
 * `parseAmountToNano("44.6172", 9)` → `44617200000n`. Fragment's amounts are decimal strings; a
 * value that is not a plain decimal, or has more fractional digits than `decimals` (other than
 * trailing zeros), is protocol drift and raises UNEXPECTED_RESPONSE rather than being rounded.
 */
export function parseAmountToNano(decimal: string, decimals: number): bigint {
  try {
    return parseUnits(decimal.trim(), decimals);
  } catch (error) {
    throw new FragmentError(
      'UNEXPECTED_RESPONSE',
      `Fragment amount ${JSON.stringify(decimal)} is not a decimal with ≤${decimals} places`,
      {
        cause: error,
      },
    );
  }
}
