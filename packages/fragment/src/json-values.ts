/** Coercions of Fragment's loosely typed JSON answers (booleans as 1/"1", numbers unquoted, …). */

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

/** A decimal amount from JSON (string, or an integer/decimal number Fragment wrote unquoted). */
export function decimalText(value: unknown): string | undefined {
  const text = scalarText(value);
  return text !== undefined && /^\d+(\.\d+)?$/.test(text) ? text : undefined;
}
