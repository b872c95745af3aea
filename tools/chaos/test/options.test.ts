/**
 * `npm run chaos` and `npm run chaos:ci` are told apart only by their options: the `--ci` preset,
 * the flags that override it, and a refusal of anything it does not know (a typo must not run the
 * full 12-minute drive with defaults).
 */
import { parseOptions } from '../src/options';

describe('chaos options', () => {
  it('runs the full drive by default and the short one with --ci', () => {
    expect(parseOptions([])).toMatchObject({ purchases: 1000, checkouts: 200, minutes: 12, kills: 3, seed: 'chaos-1' });
    expect(parseOptions(['--ci'])).toMatchObject({ purchases: 150, checkouts: 30, minutes: 2.5, kills: 2 });
  });

  it('lets flags override the preset, as separate or inline values', () => {
    const options = parseOptions(['--ci', '--seed', 'replay-7', '--purchases=40', '--workers', '0', '--keep']);
    expect(options).toMatchObject({ seed: 'replay-7', purchases: 40, checkouts: 30, workers: 1, keep: true });
  });

  it('refuses an unknown flag and a value that is not a non-negative number', () => {
    expect(() => parseOptions(['--purchase', '10'])).toThrow('unknown option --purchase');
    expect(() => parseOptions(['--minutes', '-1'])).toThrow('--minutes needs a non-negative number');
    expect(() => parseOptions(['--kills'])).toThrow('--kills needs a non-negative number');
  });
});
