/**
 * A timing suite (*.timing.test.ts): npm test runs these after every other suite, one at a time, so
 * the event-loop gaps they bound are not the scheduler's on an oversubscribed machine.
 */
import request from 'supertest';
import { mnemonicNew } from '@ton/crypto';
import { useResolveGateway } from './support/resolve-gateway';

const suite = useResolveGateway();
const { resolve } = suite;

describe('POST /api/v1/wallets/resolve', () => {
  it('keeps the event loop turning during a burst of 50 TON-native resolves', async () => {
    // Distinct seeds: the derived-key cache would otherwise answer all but the first.
    const seeds = await Promise.all(Array.from({ length: 50 }, async () => (await mnemonicNew(24)).join(' ')));
    let maxGap = 0;
    let last = Date.now();
    const ticker = setInterval(() => {
      const now = Date.now();
      maxGap = Math.max(maxGap, now - last);
      last = now;
    }, 10);
    const burst = seeds.map((seed) => resolve({ seed }));
    const started = Date.now();
    const probe = await request(suite.gateway.app).get('/livez');
    const probeMs = Date.now() - started;
    const results = await Promise.all(burst);
    clearInterval(ticker);
    expect(probe.status).toBe(200);
    expect(results.every((result) => result.status === 200 || result.status === 503)).toBe(true);
    expect(results.filter((result) => result.status === 200).length).toBeGreaterThan(0);
    // Loose bounds: the point is that the loop is not blocked for the burst's whole duration.
    expect(maxGap).toBeLessThan(500);
    expect(probeMs).toBeLessThan(1_000);
  });
});
