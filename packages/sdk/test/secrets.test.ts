import { BrowserSecretError, InsecureTransportError, StarsgateError, Starsgate } from '../src/index';
import { errorBody, json, scriptedFetch, SEED } from './support/scripted-fetch';

function everythingIn(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  while (current instanceof Error) {
    parts.push(String(current), current.stack ?? '', JSON.stringify(current), JSON.stringify(Object.entries(current)));
    current = current.cause;
  }
  return parts.join('\n');
}

const ORDER = { product: 'stars', username: '@alice', amount: 50, payment_method: 'gram', seed: SEED } as const;

describe('a seed never leaves in an error', () => {
  it.each([
    ['400', json(400, errorBody('INVALID_BIP39_SEED'))],
    ['500', json(500, errorBody('INTERNAL_ERROR'))],
    ['connection', new TypeError(`fetch failed for ${SEED}`)],
  ])('%s', async (_name, answer) => {
    const script = scriptedFetch(() => answer);
    const sdk = new Starsgate({ fetch: script.fetch, maxRetries: 1 });
    (sdk as unknown as { sleep: () => Promise<void> }).sleep = () => Promise.resolve();
    const calls: Array<() => Promise<unknown>> = [
      () => sdk.createPurchase({ ...ORDER, idempotency_key: 'k' }),
      () => sdk.resolveWallet({ seed: SEED, account_index: 0 }),
    ];
    for (const call of calls) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StarsgateError);
      expect((error as Error).cause).toBeUndefined();
      expect(everythingIn(error)).not.toContain('abandon');
    }
    expect(script.sent[0]!.body!.seed).toBe(SEED);
  });
});

describe('in a browser', () => {
  const scope = globalThis as { window?: unknown; document?: unknown };
  beforeEach(() => {
    scope.window = {};
    scope.document = {};
  });
  afterEach(() => {
    delete scope.window;
    delete scope.document;
  });

  it('createPurchase, buyStars, buyPremium and resolveWallet refuse to run and send nothing', async () => {
    const script = scriptedFetch(() => json(202, {}));
    const sdk = new Starsgate({ fetch: script.fetch });
    const calls: Array<() => Promise<unknown>> = [
      () => sdk.createPurchase({ ...ORDER, idempotency_key: 'k' }),
      () => sdk.buyStars({ username: '@a', amount: 50, payment_method: 'gram', seed: SEED }),
      () => sdk.buyPremium({ username: '@a', months: 3, payment_method: 'gram', seed: SEED }),
      () => sdk.resolveWallet({ seed: SEED }),
    ];
    for (const call of calls) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BrowserSecretError);
      expect(String(error)).toContain('checkout');
    }
    expect(script.sent).toHaveLength(0);
  });

  it('checkout helpers and reads work there', async () => {
    const script = scriptedFetch(() => json(200, { stale: false }));
    const sdk = new Starsgate({ fetch: script.fetch });
    await sdk.getPrices();
    await sdk.getCheckout('0d4f7a5e-8b1c-4f8e-a3b9-5e2d1c9f7a61');
    expect(script.sent).toHaveLength(2);
  });
});

describe('base URL', () => {
  it.each(['http://gateway.example', 'http://10.0.0.5:8080', 'http://starsgate.shop.svc:8080'])(
    'never sends a seed over plain http to %s unless allowed, and says how to allow it',
    async (baseURL) => {
      const script = scriptedFetch(() => json(202, { purchase_id: 'p', status: 'queued', status_url: '/x' }));
      const sdk = new Starsgate({ baseURL, fetch: script.fetch });
      for (const call of [
        () => sdk.buyStars({ username: '@alice', amount: 50, payment_method: 'gram', seed: SEED }),
        () => sdk.resolveWallet({ seed: SEED }),
      ]) {
        const error = await call().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(InsecureTransportError);
        expect(String((error as InsecureTransportError).action)).toContain('allowInsecureHttp: true');
        expect(JSON.stringify(error) + String(error)).not.toContain(SEED);
      }
      expect(script.sent).toHaveLength(0);
      const allowed = new Starsgate({ baseURL, fetch: script.fetch, allowInsecureHttp: true });
      await allowed.buyStars({ username: '@alice', amount: 50, payment_method: 'gram', seed: SEED });
      expect(script.sent).toHaveLength(1);
    },
  );
  it('calls without a secret work over http inside a private network', async () => {
    const script = scriptedFetch(() => json(200, { stale: false }));
    const sdk = new Starsgate({ baseURL: 'http://starsgate.payments.svc.cluster.local:8080', fetch: script.fetch });
    await sdk.getPrices();
    await sdk.getPurchase('5b3c3a52-6f0e-4c4e-9d1e-1f1f6c7b8a90');
    expect(script.sent).toHaveLength(2);
  });
  it('refuses a base URL that is not http(s)', () => {
    expect(() => new Starsgate({ baseURL: 'ftp://127.0.0.1' })).toThrow(/http\(s\) URL/);
  });
  it.each(['http://127.0.0.1:8080', 'http://localhost:1', 'http://[::1]:8080', 'https://gateway.example/'])(
    'accepts %s',
    (baseURL) => {
      expect(new Starsgate({ baseURL }).baseURL).toBe(baseURL.replace(/\/$/, ''));
    },
  );
});
