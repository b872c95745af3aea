/** Coercions of Fragment's loosely typed JSON answers (booleans as 1/"1", numbers unquoted, …). */
import { fragmentDecimal } from './amounts';

export function asBoolean(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 'true';
}

/** A JSON scalar as a form/echo string (numbers as JSON writes them). */
export function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return String(value);
  return undefined;
}

/**
 * A decimal amount from JSON (a string, possibly thousands-grouped as `"1,000.5"`, or a number
 * Fragment wrote unquoted), as a plain decimal string.
 */
export function decimalText(value: unknown): string | undefined {
  const text = scalarText(value);
  return text !== undefined ? fragmentDecimal(text) : undefined;
}
