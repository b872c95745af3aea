/** Exact decimal <-> scaled-bigint conversions. Money never goes through floats. */

const DECIMAL = /^(\d+)(?:\.(\d*))?$/;

/** Parses a non-negative decimal string into an integer scaled by 10^scale. Throws on excess precision. */
export function parseDecimal(text: string, scale: number): bigint {
  const match = DECIMAL.exec(text.trim());
  if (!match) throw new Error(`not a decimal: ${JSON.stringify(text)}`);
  const whole = match[1] ?? '0';
  const frac = (match[2] ?? '').replace(/0+$/, '');
  if (frac.length > scale) throw new Error(`${text} has more than ${scale} decimals`);
  return BigInt(whole) * 10n ** BigInt(scale) + BigInt(frac.padEnd(scale, '0') || '0');
}

/** Formats an integer scaled by 10^scale; trailing zeros trimmed but at least `minFrac` decimals kept. */
export function formatDecimal(value: bigint, scale: number, minFrac = 0): string {
  if (value < 0n) return `-${formatDecimal(-value, scale, minFrac)}`;
  const base = 10n ** BigInt(scale);
  const whole = value / base;
  let frac = (value % base).toString().padStart(scale, '0').replace(/0+$/, '');
  if (frac.length < minFrac) frac = frac.padEnd(minFrac, '0');
  return frac ? `${whole}.${frac}` : whole.toString();
}

/** ceil(a / b) for non-negative bigints. */
export function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

/**
 * A decimal as Fragment writes it for people: the integer part grouped by thousands with commas
 * (`1234.5` → `1,234.5`, `999` unchanged), docs/fragment-protocol.md §17.3.
 */
export function groupThousands(decimal: string): string {
  const [whole = '', frac] = decimal.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ',');
  return frac === undefined ? grouped : `${grouped}.${frac}`;
}
