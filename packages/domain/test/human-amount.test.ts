import { coinOf, humanAmount } from '../src/money/human-amount';

describe('humanAmount', () => {
  test('base units read as GRAM and USDT, exactly', () => {
    expect(humanAmount('441200000', 'GRAM')).toBe('0.4412 GRAM');
    expect(humanAmount(750000n, 'USDT')).toBe('0.75 USDT');
    expect(humanAmount('1', 'GRAM')).toBe('0.000000001 GRAM');
    expect(humanAmount('123456789012345678901', 'GRAM')).toBe('123456789012.345678901 GRAM');
    expect(humanAmount('2000000', 'USDT')).toBe('2 USDT');
  });

  test('nothing, or something that is not base units, gives null (never a guess)', () => {
    expect(humanAmount(null, 'GRAM')).toBeNull();
    expect(humanAmount(undefined, 'USDT')).toBeNull();
    expect(humanAmount('0.44', 'GRAM')).toBeNull();
    expect(humanAmount('-5', 'GRAM')).toBeNull();
  });

  test('the coin of a stored currency label', () => {
    expect(coinOf('GRAM')).toBe('GRAM');
    expect(coinOf('ton')).toBe('GRAM');
    expect(coinOf('usdt')).toBe('USDT');
    expect(coinOf('BTC')).toBeNull();
    expect(coinOf(null)).toBeNull();
  });
});
