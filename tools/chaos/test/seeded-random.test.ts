/**
 * A chaos run is replayable: the same `--seed` gives the same plan and fault times (SeededRandom),
 * and a forked stream for one concern does not move when another concern draws more.
 */
import { SeededRandom } from '../src/random';

const draws = (random: SeededRandom, count: number): number[] => Array.from({ length: count }, () => random.next());

describe('SeededRandom', () => {
  it('repeats its draws for the same seed and differs for another', () => {
    expect(draws(new SeededRandom('chaos-1'), 20)).toEqual(draws(new SeededRandom('chaos-1'), 20));
    expect(draws(new SeededRandom('chaos-2'), 20)).not.toEqual(draws(new SeededRandom('chaos-1'), 20));
  });

  it('draws within its ranges', () => {
    const random = new SeededRandom('ranges');
    for (let i = 0; i < 1000; i++) {
      const value = random.next();
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThan(1);
      const integer = random.int(3, 5);
      expect([3, 4, 5]).toContain(integer);
    }
    expect(() => random.pick([])).toThrow('pick from an empty list');
  });

  it('keeps a forked stream independent of later draws on the parent', () => {
    const first = new SeededRandom('fork');
    const second = new SeededRandom('fork');
    const forkOfFirst = first.fork('faults');
    const forkOfSecond = second.fork('faults');
    draws(first, 50);
    expect(draws(forkOfFirst, 10)).toEqual(draws(forkOfSecond, 10));
  });
});
