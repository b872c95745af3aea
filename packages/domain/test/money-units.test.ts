import { formatUnits, parseUnits } from '../src';

describe('formatUnits / parseUnits (domain money helpers, used for GRAM and USDT)', () => {
  it('formats exactly', () => {
    expect(formatUnits(0n, 9)).toBe('0');
    expect(formatUnits(1n, 9)).toBe('0.000000001');
    expect(formatUnits(1_500_000_000n, 9)).toBe('1.5');
    expect(formatUnits(2_000_000n, 6)).toBe('2');
    expect(formatUnits(-1_250_000n, 6)).toBe('-1.25');
    expect(formatUnits(123456789012345678901234567890n, 9)).toBe('123456789012345678901.23456789');
    expect(formatUnits(42n, 0)).toBe('42');
  });

  it('parses exactly and round-trips', () => {
    expect(parseUnits('1.5', 9)).toBe(1_500_000_000n);
    expect(parseUnits('0.000001', 6)).toBe(1n);
    expect(parseUnits('12', 6)).toBe(12_000_000n);
    expect(parseUnits('1.500', 2)).toBe(150n);
    for (const v of [0n, 1n, 999_999_999n, 10n ** 30n + 7n]) expect(parseUnits(formatUnits(v, 9), 9)).toBe(v);
  });

  it('never rounds and rejects non-plain decimals', () => {
    expect(() => parseUnits('0.0000001', 6)).toThrow(RangeError);
    for (const bad of ['', '-1', '+1', '1e3', ' 1', '1,5', '.5', '5.', '0x10', 'NaN']) {
      expect(() => parseUnits(bad, 9)).toThrow(RangeError);
    }
    expect(() => formatUnits(1n, -1)).toThrow(RangeError);
  });
});
