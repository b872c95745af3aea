import { randomBytes } from 'node:crypto';
import { ConfigError } from '@starsgate/platform';
import { loadWorkerConfig } from '../src/config';

const base = { NODE_ENV: 'test', STARSGATE_SECRET_KEY: `t1:${randomBytes(32).toString('base64')}` };

test('JETTON_GAS_ATTACH defaults inside the 0.3 to 0.6 GRAM other clients allow (docs/fragment-protocol.md, 2026-11-28)', () => {
  const gas = loadWorkerConfig({ ...base }).jettonGasAttachNano;
  expect(gas).toBeGreaterThanOrEqual(300_000_000n);
  expect(gas).toBeLessThanOrEqual(600_000_000n);
  expect(loadWorkerConfig({ ...base, JETTON_GAS_ATTACH: '0.35' }).jettonGasAttachNano).toBe(350_000_000n);
});

test('production refuses toncenter.com unpaced (TONCENTER_RPS=0) at start, naming the variable', () => {
  let error: unknown;
  try {
    loadWorkerConfig({
      ...base,
      NODE_ENV: 'production',
      TONCENTER_URL: 'https://toncenter.com/api/v2',
      TONCENTER_RPS: '0',
    });
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(ConfigError);
  expect((error as ConfigError).problems).toContainEqual(
    expect.stringMatching(/^TONCENTER_RPS=0 \(unpaced\) is refused with toncenter\.com when NODE_ENV=production/),
  );
});

test('look-alikes count across every login unless the operator says each login is its own account', () => {
  expect(loadWorkerConfig({ ...base }).fragmentAccountScope).toBe('all');
  expect(loadWorkerConfig({ ...base, FRAGMENT_ACCOUNT_SCOPE: 'login' }).fragmentAccountScope).toBe('login');
  expect(() => loadWorkerConfig({ ...base, FRAGMENT_ACCOUNT_SCOPE: 'account' })).toThrow(ConfigError);
});
