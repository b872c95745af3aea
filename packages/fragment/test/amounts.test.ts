/**
 * The one reader of Fragment's numbers: plain decimals, and large amounts as Fragment writes them
 * with thousands separators (`1,000.5`); anything whose grouping is ambiguous is a format error.
 * As properties: every amount written with grouping reads back to exactly its units, and a string
 * the reader accepts is always a well-formed plain or grouped decimal.
 */
import fc from 'fast-check';
import { formatUnits } from '@starsgate/domain';
import { FragmentError, fragmentDecimal, fragmentInteger, parseAmountToNano, parseTransaction } from '../src';

/** `1234567.5` → `1,234,567.5` with the given separator. */
function grouped(decimal: string, separator: string): string {
  const [whole = '', frac] = decimal.split('.');
  const groups = whole.replace(/\B(?=(\d{3})+$)/g, separator);
  return frac === undefined ? groups : `${groups}.${frac}`;
}

describe('fragmentDecimal', () => {
  it.each([
    ['44.6172', '44.6172'],
    ['1,000.5', '1000.5'],
    ['1,000,000', '1000000'],
    ['1,000,000,000', '1000000000'],
    ['999', '999'],
    ['12,345.6789', '12345.6789'],
    [' 1,000 ', '1000'],
    ['1 000', '1000'],
    ['1\u00a0000.25', '1000.25'],
    ['1\u202f000', '1000'],
    ["1'000", '1000'],
    ['0.75', '0.75'],
  ])('reads %j as %j', (text, plain) => {
    expect(fragmentDecimal(text)).toBe(plain);
  });

  it.each([
    '1,00',
    '1,0000',
    '1.000,5',
    '1,000 000',
    "1,000'000",
    ',100',
    '100,',
    '1,,000',
    '1,000.',
    '.5',
    '1.2.3',
    '01,000',
    '0,100',
    '1,000.5,5',
    '-1,000',
    '+5',
    '1e3',
    'NaN',
    '',
    '1 000,5',
    '١٢٣',
  ])('rejects %j', (text) => {
    expect(fragmentDecimal(text)).toBeUndefined();
  });

  it('reads whole numbers for history cells, and nothing fractional', () => {
    expect(fragmentInteger('1,000')).toBe(1000);
    expect(fragmentInteger('1,000.5')).toBeUndefined();
    expect(fragmentInteger('1,00')).toBeUndefined();
  });
});

describe('parseAmountToNano', () => {
  it('converts grouped and plain amounts exactly, and reports anything else as a format error', () => {
    expect(parseAmountToNano('1,000.5', 9)).toBe(1_000_500_000_000n);
    expect(parseAmountToNano('1,764.7059', 9)).toBe(1_764_705_900_000n);
    expect(parseAmountToNano('3,000', 6)).toBe(3_000_000_000n);
    for (const bad of ['1,00', '1.000,5', '1,0000', '1.0000000001']) {
      const error = (() => {
        try {
          return parseAmountToNano(bad, 9);
        } catch (caught) {
          return caught;
        }
      })();
      expect(error).toBeInstanceOf(FragmentError);
      expect(error).toMatchObject({ kind: 'UNEXPECTED_RESPONSE' });
    }
  });

  it('reads back every amount written with thousands grouping to exactly its units', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 24n }),
        fc.constantFrom(6, 9),
        fc.constantFrom(',', ' ', '\u00a0', '\u202f', "'"),
        fc.integer({ min: 0, max: 3 }),
        (units, decimals, separator, trailingZeros) => {
          const plain = formatUnits(units, decimals);
          const written = grouped(plain.includes('.') ? plain + '0'.repeat(trailingZeros) : plain, separator);
          expect(parseAmountToNano(written, decimals)).toBe(units);
          expect(parseAmountToNano(plain, decimals)).toBe(units);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('never reads garbage as a number: whatever it accepts is a plain decimal or one grouped by thousands', () => {
    const char = fc.constantFrom('0', '1', '5', '9', ',', '.', ' ', "'", '\u00a0', '-', 'e', 'x');
    fc.assert(
      fc.property(
        fc.array(char, { maxLength: 16 }).map((chars) => chars.join('')),
        (text) => {
          const read = fragmentDecimal(text);
          if (read === undefined) return;
          const trimmed = text.trim();
          expect(read).toMatch(/^\d+(\.\d+)?$/);
          // Accepted as written (plain), or exactly the grouping of what it reads as, one separator throughout.
          const separators = new Set(trimmed.replace(/[\d.]/g, ''));
          expect(separators.size).toBeLessThanOrEqual(1);
          const [separator] = [...separators];
          expect(separator === undefined ? read : grouped(read, separator)).toBe(trimmed);
        },
      ),
      { numRuns: 20_000 },
    );
  });
});

describe('link answers', () => {
  const answer = (amount: unknown) => ({
    transaction: { validUntil: 1_900_000_000, from: '0:' + 'ab'.repeat(32), messages: [{ address: 'EQx', amount }] },
  });

  it('read a grouped nanoTON amount as its plain digits, and refuse a fractional or ambiguous one', () => {
    expect(parseTransaction(answer('1,764,705,900,000'), 'getBuyStarsLink').messages[0]!.amount).toBe('1764705900000');
    expect(parseTransaction(answer(441200000), 'getBuyStarsLink').messages[0]!.amount).toBe('441200000');
    for (const bad of ['1,76,4', '1.5', '1,000.5'])
      expect(() => parseTransaction(answer(bad), 'getBuyStarsLink')).toThrow(/not integer nanoTON/);
  });
});
