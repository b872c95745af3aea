/**
 * The open-loop generator of `npm run bench:open-loop`: it sends exactly rate × duration requests
 * whatever the answers, and charges a server's stall to every request scheduled during it (a
 * closed loop would charge it once per connection and then slow down). No timing target is
 * asserted: only that the stall is counted where it happened.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { runOpenLoop } from '../src/support/open-loop-runner';

describe('open-loop load generator', () => {
  let server: http.Server;
  let url: string;
  let answered = 0;

  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      answered++;
      // The 50th request freezes the server's event loop for 300 ms: every request scheduled
      // during the freeze waits for it.
      if (answered === 50) {
        const until = Date.now() + 300;
        while (Date.now() < until);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends every scheduled request and counts a stall against each request scheduled during it', async () => {
    const result = await runOpenLoop({
      url,
      method: 'GET',
      rate: 200,
      durationSeconds: 1,
      maxSockets: 64,
      timeoutMs: 5_000,
    });
    expect(result.sent).toBe(200);
    expect(result.completed).toBe(200);
    expect(result.non2xx + result.errors + result.timeouts).toBe(0);
    // At 200/s a 300 ms freeze holds about 60 scheduled requests back; at least a third of those
    // must carry a latency over 100 ms, which a closed loop of 64 connections could not show.
    expect(result.latencyMs.p90).toBeGreaterThan(100);
    expect(result.latencyMs.max).toBeGreaterThanOrEqual(250);
  });
});
