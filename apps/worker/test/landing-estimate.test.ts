import { LandingEstimate } from '../src/purchases/chain/landing-estimate';

describe('LandingEstimate', () => {
  it('uses the poll interval until it has seen a few landings', () => {
    const estimate = new LandingEstimate();
    estimate.broadcast('a', 0);
    estimate.found('a', 2_000);
    expect(estimate.firstLookupAfterMs(300, 3_000)).toBe(300);
  });

  it('aims just before the median landing, within bounds', () => {
    const estimate = new LandingEstimate();
    [600, 620, 5_000, 590, 610].forEach((ms, i) => {
      estimate.broadcast(`b${i}`, 1_000);
      estimate.found(`b${i}`, 1_000 + ms);
    });
    expect(estimate.firstLookupAfterMs(300, 3_000)).toBe(Math.round(610 * 0.9));
    expect(estimate.firstLookupAfterMs(700, 3_000)).toBe(700);
    expect(estimate.firstLookupAfterMs(100, 400)).toBe(400);
  });

  it('counts a batch once, and never a batch it did not see broadcast', () => {
    const estimate = new LandingEstimate();
    for (const id of ['x', 'y', 'z']) estimate.broadcast(id, 0);
    for (const id of ['x', 'y', 'z']) {
      estimate.found(id, 1_000);
      estimate.found(id, 9_000);
    }
    estimate.found('never-broadcast-here', 50_000);
    expect(estimate.firstLookupAfterMs(100, 60_000)).toBe(900);
  });
});
