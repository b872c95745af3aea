/** The readers of the contract check (docs/fragment-protocol.md §19.5): placeholder limits and radio values. */
import { parseStarsLimits, radioValues } from '../src';

it('reads the Stars limits from the placeholder, thousands separators included', () => {
  expect(parseStarsLimits('<input name="quantity" placeholder="Enter amount from 50 to 10,000,000">')).toEqual({
    min: 50,
    max: 10_000_000,
  });
  expect(parseStarsLimits('<div>Enter amount from 50 to 1&#44;000&#44;000</div>')).toEqual({ min: 50, max: 1_000_000 });
  expect(parseStarsLimits('<input name="quantity" placeholder="Enter the amount of Stars">')).toBeUndefined();
});

it('reads radio values by name, in order, once each', () => {
  const html =
    '<input type="radio" name="months" value="3"><input name="payment_method" value="ton" checked><input value="6" name="months"><input type="radio" name="months" value="3"><input name="payment_method" value="usdt_ton">';
  expect(radioValues(html, 'months')).toEqual(['3', '6']);
  expect(radioValues(html, 'payment_method')).toEqual(['ton', 'usdt_ton']);
  expect(radioValues(html, 'stars')).toEqual([]);
});
