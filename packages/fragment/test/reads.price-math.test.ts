/**
 * Exact price arithmetic against hand-computed values (no floats, rounding only up, only where
 * documented). Fragment's rule: GRAM = ceil(USD ÷ tonRate, 4 dp); USD = $0.015 × stars.
 */
import {
  ceilDiv,
  formatGram,
  formatUsdt,
  gramNanoForUsd,
  parseDecimal,
  perUnitUsdMicro,
  toUnitsCeil,
  usdToUsdtUnits,
} from '../src';

describe('usdToUsdtUnits: Fragment USD → USDT units (6 dp), exact', () => {
  it.each([
    ['0.75', 750_000n],
    ['0.765', 765_000n],
    ['14999.985', 14_999_985_000n],
    ['15000', 15_000_000_000n],
    ['11.99', 11_990_000n],
    ['0.000001', 1n],
  ])('%s → %s', (usd, units) => {
    expect(usdToUsdtUnits(usd)).toBe(units);
  });

  it('rounds a 7th decimal UP, never down (documented rule 1)', () => {
    expect(usdToUsdtUnits('0.0000001')).toBe(1n);
    expect(usdToUsdtUnits('1.2345671')).toBe(1_234_568n);
    expect(usdToUsdtUnits('1.2345670')).toBe(1_234_567n);
  });

  it('refuses anything but a plain decimal', () => {
    for (const bad of ['', '-1', '1e3', '1,5', ' ', '0x10', 'NaN'])
      expect(() => usdToUsdtUnits(bad)).toThrow(RangeError);
  });
});

describe('gramNanoForUsd: ceil(USD ÷ tonRate, 4 dp) in nanoGRAM', () => {
  it.each([
    // stars, USD micro, rate, GRAM
    [50, 750_000n, '1.70', '0.4412'], // 0.441176…
    [51, 765_000n, '1.70', '0.45'], // exactly 0.45: no rounding
    [999_999, 14_999_985_000n, '1.70', '8823.5206'], // 8823.520588…
    [1_000_000, 15_000_000_000n, '1.70', '8823.5295'], // 8823.529411…
    [50, 750_000n, '3.125', '0.24'], // exact
    [1_000_000, 15_000_000_000n, '3.125', '4800'],
    [50, 750_000n, '1.335', '0.5618'], // 0.561797… (2026 page fixture rate)
    [5_050, 75_750_000n, '1.698', '44.6114'], // 44.611307…
  ])('%i stars ($%s micro) at %s → %s', (_stars, usdMicro, rate, gram) => {
    expect(formatGram(gramNanoForUsd(usdMicro, rate))).toBe(gram);
  });

  it('accepts rates with many decimals exactly (no float on the way)', () => {
    // 15 / 1.7000001 = 8.8235289… → 8.8236
    expect(formatGram(gramNanoForUsd(15_000_000n, '1.7000001'))).toBe('8.8236');
    // 1 / 0.3333333333333 = 3.0000000000003… → 3.0001 (rounded up, as Fragment does)
    expect(formatGram(gramNanoForUsd(1_000_000n, '0.3333333333333'))).toBe('3.0001');
  });

  it('refuses a zero rate', () => {
    expect(() => gramNanoForUsd(1n, '0')).toThrow(RangeError);
    expect(() => gramNanoForUsd(1n, '0.000')).toThrow(RangeError);
  });
});

describe('perUnitUsdMicro: linear from the 50-star reference', () => {
  it.each([
    [50, 750_000n],
    [51, 765_000n],
    [999_999, 14_999_985_000n],
    [1_000_000, 15_000_000_000n],
  ])('%i stars → %s micro-USD', (stars, micro) => {
    expect(perUnitUsdMicro(750_000n, 50, stars)).toBe(micro);
  });

  it('rounds up when the per-star price is not a whole micro-dollar', () => {
    // $0.77 per 50 = $0.0154 per star; 1 star → 15,400 micro exactly; 3 stars of $0.01 per 3 → ceil.
    expect(perUnitUsdMicro(770_000n, 50, 1)).toBe(15_400n);
    expect(perUnitUsdMicro(10_000n, 3, 1)).toBe(3_334n);
  });
});

describe('helpers', () => {
  it('parseDecimal keeps every digit', () => {
    expect(parseDecimal('1.70')).toEqual({ units: 170n, scale: 2 });
    expect(parseDecimal('15000')).toEqual({ units: 15_000n, scale: 0 });
  });

  it('ceilDiv and toUnitsCeil', () => {
    expect(ceilDiv(10n, 5n)).toBe(2n);
    expect(ceilDiv(11n, 5n)).toBe(3n);
    expect(ceilDiv(0n, 5n)).toBe(0n);
    expect(toUnitsCeil('44.6172', 9)).toBe(44_617_200_000n);
    expect(toUnitsCeil('0.4412', 4)).toBe(4_412n);
  });

  it('formats without trailing zeros', () => {
    expect(formatUsdt(15_000_000_000n)).toBe('15000');
    expect(formatUsdt(765_000n)).toBe('0.765');
    expect(formatGram(450_000_000n)).toBe('0.45');
  });
});
