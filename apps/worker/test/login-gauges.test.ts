/**
 * `starsgate_fragment_login_alive` follows the configured logins (docs/fragment-protocol.md §20.3):
 * a dead login replaced in FRAGMENT_COOKIES_FILE loses its series at the next scrape, so the
 * login-dead alert (`min by (session) (starsgate_fragment_login_alive) == 0`) stops once the
 * operator renewed it, without a worker restart.
 */
import { parsePrometheusText } from '@starsgate/platform/testing';
import { createWorkerMetrics, setLoginGauges } from '../src/observability/worker-metrics';

async function aliveSeries(metrics: ReturnType<typeof createWorkerMetrics>) {
  const samples = parsePrometheusText(await metrics.registry.metrics());
  return samples
    .filter((sample) => sample.name === 'starsgate_fragment_login_alive')
    .map((sample) => [sample.labels.session, sample.value]);
}

test('a login no longer configured has no login_alive series; the configured ones do', async () => {
  const metrics = createWorkerMetrics();
  setLoginGauges(metrics.fragmentLoginAlive, [
    { sessionId: 'old-login', alive: false },
    { sessionId: 'other', alive: true },
  ]);
  expect(await aliveSeries(metrics)).toEqual([
    ['old-login', 0],
    ['other', 1],
  ]);
  // The operator replaced the dead login in the file: its state was forgotten, the renewed one is alive.
  setLoginGauges(metrics.fragmentLoginAlive, [
    { sessionId: 'other', alive: true },
    { sessionId: 'renewed', alive: true },
  ]);
  expect(await aliveSeries(metrics)).toEqual([
    ['other', 1],
    ['renewed', 1],
  ]);
});
