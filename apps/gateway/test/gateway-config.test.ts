import { ConfigError } from '@starsgate/platform';
import { loadGatewayConfig } from '../src/config';

test("the schema's problems and the rules' are listed together", () => {
  let error: unknown;
  try {
    loadGatewayConfig({
      NODE_ENV: 'production',
      PORT: '70000',
      TON_NETWORK: 'devnet',
      STARSGATE_ADMIN_TOKENS: 'short',
      TRUST_PROXY: 'true',
    });
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(ConfigError);
  expect((error as ConfigError).problems).toEqual([
    'TON_NETWORK must be one of mainnet, testnet (got "devnet")',
    'PORT must be an integer from 0 to 65535 (got "70000")',
    expect.stringMatching(/^TRUST_PROXY=true would trust every hop/),
    expect.stringMatching(/^FRAGMENT_READ_COOKIES or FRAGMENT_COOKIES is required/),
    expect.stringMatching(/^TON_PROOF_DOMAINS: name the app domains/),
    expect.stringMatching(/^STARSGATE_ADMIN_TOKENS: every token needs at least 32/),
    'STARSGATE_SEAL_KEY is required when NODE_ENV=production',
    'STARSGATE_FINGERPRINT_KEY is required when NODE_ENV=production',
  ]);
});

test('the defaults, and the expensive routes sharing RATE_LIMIT_MAX', () => {
  const config = loadGatewayConfig({ RATE_LIMIT_MAX: '1000', CHECKOUT_RATE_LIMIT_MAX: '7' });
  expect(config.port).toBe(8080);
  expect(config.toncenter.rps).toBe(1);
  expect(config.expensiveRoutes).toMatchObject({
    walletResolvePerClient: 100,
    mnemonicPerClient: 50,
    checkoutPerClient: 7,
  });
  expect(config.webhookAllowPrivate).toBe('none');
});

test('production refuses toncenter.com unpaced (TONCENTER_RPS=0), with a message naming the remedy', () => {
  expect(() =>
    loadGatewayConfig({ NODE_ENV: 'production', TONCENTER_URL: 'https://toncenter.com/api/v2', TONCENTER_RPS: '0' }),
  ).toThrow(/TONCENTER_RPS=0 \(unpaced\) is refused with toncenter\.com when NODE_ENV=production/);
});
