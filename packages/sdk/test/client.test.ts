import {
  APIConnectionError,
  APIResponseValidationError,
  APITimeoutError,
  IdempotencyConflictError,
  NotFoundError,
  RateLimitError,
  ServiceUnavailableError,
  Starsgate,
  TopUpRequiredError,
  ValidationError,
  WaitTimeoutError,
  WalletSelectionRequiredError,
  throwIfFailed,
  type Purchase,
} from '../src/index';
import { errorBody, json, PURCHASE_ID, purchaseBody, scriptedFetch, SEED } from './support/scripted-fetch';

const ACCEPTED = { purchase_id: PURCHASE_ID, status: 'queued', status_url: `/api/v1/purchases/${PURCHASE_ID}` };

/** A client whose backoff is recorded instead of waited for. */
function client(answers: Parameters<typeof scriptedFetch>[0], options: { maxRetries?: number; timeout?: number } = {}) {
  const script = scriptedFetch(answers);
  const sdk = new Starsgate({ baseURL: 'http://127.0.0.1:8080', fetch: script.fetch, ...options });
  const sleeps: number[] = [];
  (sdk as unknown as { sleep: (ms: number) => Promise<void> }).sleep = (ms) => {
    sleeps.push(ms);
    return Promise.resolve();
  };
  return { sdk, sent: script.sent, sleeps };
}

describe('requests', () => {
  it('buyStars sends the order with one generated key, reused across retries', async () => {
    const { sdk, sent, sleeps } = client([
      new TypeError('fetch failed'),
      json(503, errorBody('SERVICE_UNAVAILABLE'), { 'Retry-After': '5' }),
      json(202, ACCEPTED, { 'Idempotent-Replayed': 'true' }),
    ]);
    const accepted = await sdk.buyStars({
      username: '@alice',
      amount: 50,
      payment_method: 'gram',
      seed: SEED,
      account_index: 0,
    });
    expect(accepted).toEqual({ ...ACCEPTED, replayed: true });
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((r) => r.body!.idempotency_key)).size).toBe(1);
    expect(sent[0]!.body).toMatchObject({ product: 'stars', amount: 50, account_index: 0, seed: SEED });
    expect(sent[0]!.body).not.toHaveProperty('wallet_address');
    expect(sent[0]!.headers['x-starsgate-retry-count']).toBeUndefined();
    expect(sent[2]!.headers['x-starsgate-retry-count']).toBe('2');
    expect(sleeps[0]).toBeGreaterThanOrEqual(375);
    expect(sleeps[0]).toBeLessThanOrEqual(500);
    expect(sleeps[1]).toBe(5000);
  });

  it('each buy gets its own key; an explicit key is kept; premium sends months as amount', async () => {
    const { sdk, sent } = client(() => json(202, ACCEPTED));
    await sdk.buyPremium({ username: '@alice', months: 6, payment_method: 'usdt', seed: SEED, account_index: 1 });
    await sdk.buyPremium({ username: '@alice', months: 6, payment_method: 'usdt', seed: SEED, account_index: 1 });
    await sdk.buyStars({
      username: '@alice',
      amount: 50,
      payment_method: 'gram',
      seed: SEED,
      idempotency_key: 'order-42',
    });
    expect(sent[0]!.body).toMatchObject({ product: 'premium', amount: 6 });
    expect(sent[0]!.body!.idempotency_key).not.toBe(sent[1]!.body!.idempotency_key);
    expect(sent[2]!.body!.idempotency_key).toBe('order-42');
  });

  it('availability, prices and quotes hit their routes; money stays exact decimal strings', async () => {
    const quote = { product: 'stars', amount: 1000, prices: { gram: '5.123456789', usdt: '15.000001' }, stale: false };
    const { sdk, sent } = client(() => json(200, quote));
    expect((await sdk.getStarsPrice(1000)).prices.gram).toBe('5.123456789');
    await sdk.getPremiumPrice(6);
    await sdk.getPrices();
    await sdk.checkStarsAvailability({ username: '@alice', amount: 50, payment_method: 'gram' });
    await sdk.checkPremiumAvailability({ username: '@alice', months: 3, payment_method: 'ton' });
    expect(sent.map((r) => `${r.method} ${r.url.pathname}${r.url.search}`)).toEqual([
      'GET /api/v1/prices/quote?product=stars&amount=1000',
      'GET /api/v1/prices/quote?product=premium&amount=6',
      'GET /api/v1/prices',
      'POST /api/v1/availability/check',
      'POST /api/v1/availability/check',
    ]);
    expect(sent[4]!.body).toEqual({ product: 'premium', amount: 3, username: '@alice', payment_method: 'ton' });
  });

  it('an id is one path segment', async () => {
    const { sdk, sent } = client([json(404, errorBody('PURCHASE_NOT_FOUND'))]);
    await expect(sdk.getPurchase('../prices')).rejects.toBeInstanceOf(NotFoundError);
    expect(sent[0]!.url.pathname).toBe('/api/v1/purchases/..%2Fprices');
  });
});

describe('errors', () => {
  it('maps code and status to classes with details, action and request id', async () => {
    const { sdk } = client([
      json(
        400,
        errorBody('WALLET_SELECTION_REQUIRED', {
          details: [{ field: 'account_index', message: 'is required' }],
          action: 'Send account_index.',
        }),
      ),
    ]);
    const error = await sdk
      .createPurchase({
        product: 'stars',
        username: '@a',
        amount: 50,
        payment_method: 'gram',
        seed: SEED,
        idempotency_key: 'k',
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WalletSelectionRequiredError);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({
      status: 400,
      code: 'WALLET_SELECTION_REQUIRED',
      details: [{ field: 'account_index', message: 'is required' }],
      action: 'Send account_index.',
      requestId: 'req-1',
      request: 'POST /api/v1/purchases',
    });
  });

  it.each([
    [404, 'PURCHASE_NOT_FOUND', NotFoundError],
    [409, 'IDEMPOTENCY_KEY_REUSED', IdempotencyConflictError],
    [429, 'RATE_LIMITED', RateLimitError],
    [503, 'PRICES_UNAVAILABLE', ServiceUnavailableError],
    [422, 'TOP_UP_REQUIRED', TopUpRequiredError],
  ])('%d %s', async (status, code, ErrorClass) => {
    const { sdk } = client([json(status, errorBody(code), { 'Retry-After': '600', 'x-should-retry': 'false' })]);
    const error = await sdk.getPrices().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toMatchObject({ status, code, retryAfter: 600 });
  });

  it('a failed purchase throws TopUpRequiredError with the exact shortfall; reconciliation never throws', () => {
    const details = [{ currency: 'GRAM', required: '0.31', available: '0.02', shortfall: '0.29' }];
    const failed = purchaseBody('failed', {
      error: { code: 'TOP_UP_REQUIRED', message: 'short', details },
    }) as Purchase;
    expect(() => throwIfFailed(failed)).toThrow(TopUpRequiredError);
    try {
      throwIfFailed(failed);
    } catch (error) {
      expect((error as TopUpRequiredError).shortfall).toEqual(details);
    }
    expect(() =>
      throwIfFailed(purchaseBody('reconciliation_required', { error: { code: 'X', message: 'm' } }) as Purchase),
    ).not.toThrow();
  });
});

it('a 2xx body that is not JSON is a typed error, not a SyntaxError', async () => {
  const { sdk } = client([new Response('<html>captive portal</html>', { status: 200 })]);
  const error = await sdk.getPrices().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(APIResponseValidationError);
  expect(error).toMatchObject({ status: 200, code: 'UNEXPECTED_RESPONSE', request: 'GET /api/v1/prices' });
});

describe('retries', () => {
  it('429 honours Retry-After; a too-long Retry-After is thrown at once', async () => {
    const { sdk, sleeps } = client([
      json(429, errorBody('RATE_LIMITED'), { 'Retry-After': '2' }),
      json(200, purchaseBody('queued')),
    ]);
    await sdk.getPurchase(PURCHASE_ID);
    expect(sleeps).toEqual([2000]);
    const long = client([json(429, errorBody('RATE_LIMITED'), { 'Retry-After': '600' })]);
    await expect(long.sdk.getPrices()).rejects.toMatchObject({ retryAfter: 600 });
    expect(long.sent).toHaveLength(1);
  });

  it('500 and 503 are retried up to maxRetries with capped backoff; 400 never', async () => {
    const flaky = client(() => json(500, errorBody('INTERNAL_ERROR')));
    await expect(flaky.sdk.getPrices()).rejects.toMatchObject({ status: 500 });
    expect(flaky.sent).toHaveLength(3);
    expect(flaky.sleeps[1]).toBeGreaterThanOrEqual(750);
    expect(flaky.sleeps[1]).toBeLessThanOrEqual(1000);
    const bad = client(() => json(400, errorBody('INVALID_AMOUNT')));
    await expect(bad.sdk.getPrices()).rejects.toBeInstanceOf(ValidationError);
    expect(bad.sent).toHaveLength(1);
  });

  it('a stalled answer is APITimeoutError after the retries', async () => {
    let calls = 0;
    // Like a real fetch, it gives up only when the SDK aborts it.
    const stalled = ((_url: URL, init: RequestInit) => {
      calls += 1;
      return new Promise<Response>((_resolve, reject) =>
        init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      );
    }) as unknown as typeof fetch;
    const sdk = new Starsgate({ fetch: stalled, timeout: 20, maxRetries: 1 });
    (sdk as unknown as { sleep: (ms: number) => Promise<void> }).sleep = () => Promise.resolve();
    const error = await sdk.getPrices().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toContain('within 20 ms');
    expect(calls).toBe(2);
  });
});

describe('wait', () => {
  it('follows to completed and reports each status once', async () => {
    const statuses = ['queued', 'preparing', 'preparing', 'sending', 'completed'];
    const { sdk, sleeps } = client(statuses.map((s) => json(200, purchaseBody(s))));
    const seen: string[] = [];
    const purchase = await sdk.wait(PURCHASE_ID, { pollIntervalMs: 500, onUpdate: (p) => seen.push(p.status) });
    expect(purchase.status).toBe('completed');
    expect(seen).toEqual(['queued', 'preparing', 'sending', 'completed']);
    expect(sleeps).toEqual([500, 500, 500, 500]);
  });

  it('returns on reconciliation_required and says never to replace', async () => {
    const { sdk } = client([
      json(200, purchaseBody('reconciliation_required', { error: { code: 'DELIVERY_UNCONFIRMED', message: 'm' } })),
    ]);
    const purchase = await sdk.wait(PURCHASE_ID);
    expect(purchase.replacementAllowed).toBe(false);
    expect(purchase.advice).toContain('do not create a replacement');
  });

  it('throws WaitTimeoutError with the last purchase', async () => {
    const { sdk } = client(() => json(200, purchaseBody('confirming')));
    const error = await sdk.wait(PURCHASE_ID, { timeoutMs: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect((error as WaitTimeoutError<Purchase>).last.status).toBe('confirming');
  });
});
