/**
 * POST /api/v1/availability/check through the real gateway, real Redis and the real Fragment
 * simulator over HTTP: every demo username, every fault switch that matters, caching,
 * single-flight and the budgets that protect the operator's Fragment login.
 */
import request from 'supertest';
import type { TestGateway } from './support/test-gateway';
import { useFragmentGateways } from './support/fragment-sandbox';

const suite = useFragmentGateways({});
const gateway = (env: Record<string, string> = {}) => suite.gateway(env);

const check = (gw: TestGateway, body: Record<string, unknown>) =>
  request(gw.app).post('/api/v1/availability/check').send(body);
const order = (overrides: Record<string, unknown> = {}) => ({
  product: 'stars',
  username: '@alice',
  amount: 50,
  payment_method: 'gram',
  ...overrides,
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('answers for the demo usernames', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await gateway();
  });

  it.each([
    ['stars', '@alice', 50, 'AVAILABLE'],
    ['premium', '@bob', 3, 'AVAILABLE'],
    ['stars', '@premium_pat', 100, 'AVAILABLE'],
    ['premium', '@premium_pat', 6, 'PREMIUM_ALREADY_ACTIVE'],
    ['stars', '@helper_bot', 50, 'RECIPIENT_INELIGIBLE'],
    ['premium', '@news_channel', 12, 'RECIPIENT_INELIGIBLE'],
    ['stars', '@frozen_fay', 50, 'RECIPIENT_INELIGIBLE'],
    ['premium', '@frozen_fay', 3, 'AVAILABLE'],
    ['stars', '@nobody_here', 50, 'RECIPIENT_NOT_FOUND'],
    ['premium', '@nobody_here', 3, 'RECIPIENT_NOT_FOUND'],
  ])('%s for %s (amount %i) → %s', async (product, username, amount, code) => {
    const before = Date.now();
    const res = await check(gw, order({ product, username, amount }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      available: code === 'AVAILABLE',
      code,
      message: expect.any(String),
      action: expect.any(String),
      product,
      username,
      amount,
      quantities: { [product === 'stars' ? 'stars' : 'months']: amount },
      payment_method: 'gram',
      checked_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(Date.parse(res.body.checked_at)).toBeGreaterThanOrEqual(before - 5);
    expect(res.body.message).toContain(username);
    expect(res.body.action).toMatch(/repeat it whenever/);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('names what to do in human terms for each rejection', async () => {
    const premium = await check(gw, order({ product: 'premium', username: '@premium_pat', amount: 3 }));
    expect(premium.body.message).toBe('@premium_pat already has Telegram Premium, so it cannot be gifted now.');
    expect(premium.body.action).toMatch(/^Keep payment disabled; offer Stars instead/);
    const bot = await check(gw, order({ username: '@helper_bot' }));
    expect(bot.body.action).toMatch(/^Keep payment disabled/);
  });

  it('stores payment method aliases in canonical form', async () => {
    const res = await check(gw, order({ payment_method: 'usdt_ton' }));
    expect(res.status).toBe(200);
    expect(res.body.payment_method).toBe('usdt');
    expect((await check(gw, order({ payment_method: 'ton' }))).body.payment_method).toBe('gram');
  });
});

describe('input', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await gateway();
  });

  it('refuses a seed, naming wallets, without echoing or logging it', async () => {
    const seed = 'cook voyage document eight skate token alien guide drink uncle term abuse';
    const before = suite.fragment.calls('searchStarsRecipient');
    const res = await check(gw, order({ seed, account_index: 0 }));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('UNKNOWN_FIELD');
    expect(res.body.message).toMatch(/Wallets are not accepted here/);
    expect(res.body.details).toEqual([
      { field: 'seed', message: 'wallets are not accepted by availability checks' },
      { field: 'account_index', message: 'wallets are not accepted by availability checks' },
    ]);
    expect(JSON.stringify(res.body)).not.toContain('voyage');
    expect(gw.logLines.join('\n')).not.toContain('voyage');
    expect(suite.fragment.calls('searchStarsRecipient')).toBe(before);
  });

  it.each([
    ['wallet_address', { wallet_address: 'UQASomfWf2V7N46QrW4umfpARQBwKORp_z6I_8u2jUG29cYa' }],
    ['payer_address', { payer_address: 'UQASomfWf2V7N46QrW4umfpARQBwKORp_z6I_8u2jUG29cYa' }],
  ])('refuses %s', async (field, extra) => {
    const res = await check(gw, order(extra));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'UNKNOWN_FIELD', details: [{ field }] });
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    ['missing username', { username: undefined }, 'VALIDATION_FAILED', 'username'],
    ['username without @', { username: 'alice' }, 'VALIDATION_FAILED', 'username'],
    ['username too long', { username: `@${'a'.repeat(33)}` }, 'VALIDATION_FAILED', 'username'],
    ['49 stars', { amount: 49 }, 'INVALID_AMOUNT', 'amount'],
    ['1,000,001 stars', { amount: 1_000_001 }, 'INVALID_AMOUNT', 'amount'],
    ['premium for 5 months', { product: 'premium', amount: 5 }, 'INVALID_AMOUNT', 'amount'],
    ['fractional amount', { amount: 50.5 }, 'INVALID_AMOUNT', 'amount'],
    ['amount as a string', { amount: '50' }, 'INVALID_AMOUNT', 'amount'],
    ['unknown product', { product: 'gifts' }, 'VALIDATION_FAILED', 'product'],
    ['unknown payment method', { payment_method: 'btc' }, 'VALIDATION_FAILED', 'payment_method'],
    ['unknown field', { idempotency_key: 'k-1' }, 'UNKNOWN_FIELD', 'idempotency_key'],
  ])('%s → 400 %s on %s', async (_label, overrides, code, field) => {
    const res = await check(gw, order(overrides));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(code);
    expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
  });

  it('answers 400 for a body that is not an object and 415 for a form', async () => {
    expect(
      (await request(gw.app).post('/api/v1/availability/check').set('Content-Type', 'application/json').send('[1]'))
        .status,
    ).toBe(400);
    expect((await request(gw.app).post('/api/v1/availability/check').type('form').send('product=stars')).status).toBe(
      415,
    );
  });
});

describe('credentials', () => {
  it('never writes the Fragment cookies to the log, even at debug level and on failures', async () => {
    const gw = await gateway();
    await check(gw, order({ username: '@alice' }));
    suite.fragment.configure({ faults: { methods: { searchStarsRecipient: { serverErrorRate: 1 } } } });
    expect((await check(gw, order({ username: '@bob' }))).status).toBe(503);
    const log = gw.logLines.join('\n');
    expect(log).toContain('availability check not answered');
    const secrets = suite.fragment.env
      .FRAGMENT_COOKIES!.split('; ')
      .map((pair) => pair.split('=')[1] ?? '')
      .filter((value) => value.length >= 8);
    expect(secrets.length).toBe(3);
    for (const secret of secrets) expect(log).not.toContain(secret);
  });
});

describe('payment methods switched off by configuration', () => {
  it('answers PAYMENT_METHOD_UNAVAILABLE without asking Fragment, per product or everywhere', async () => {
    const gw = await gateway({ DISABLED_PAYMENT_METHODS: 'premium:usdt' });
    const before = suite.fragment.calls('searchPremiumGiftRecipient');
    const res = await check(gw, order({ product: 'premium', amount: 3, payment_method: 'usdt' }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ available: false, code: 'PAYMENT_METHOD_UNAVAILABLE', payment_method: 'usdt' });
    expect(res.body.action).toMatch(/payment_method=gram/);
    expect(suite.fragment.calls('searchPremiumGiftRecipient')).toBe(before);
    expect((await check(gw, order({ payment_method: 'usdt' }))).body.code).toBe('AVAILABLE');
    expect((await check(gw, order({ product: 'premium', amount: 3, payment_method: 'gram' }))).body.code).toBe(
      'AVAILABLE',
    );

    const all = await gateway({ DISABLED_PAYMENT_METHODS: 'usdt' });
    expect((await check(all, order({ payment_method: 'usdt_gram' }))).body.code).toBe('PAYMENT_METHOD_UNAVAILABLE');
  });

  it('refuses a malformed DISABLED_PAYMENT_METHODS at boot', async () => {
    await expect(gateway({ DISABLED_PAYMENT_METHODS: 'usdt,bitcoin' })).rejects.toThrow(
      /DISABLED_PAYMENT_METHODS: "bitcoin"/,
    );
  });
});

describe('cache and single-flight', () => {
  it('100 concurrent checks for one username make one Fragment call', async () => {
    const gw = await gateway();
    suite.fragment.configure({
      faults: { methods: { searchStarsRecipient: { latency: { minMs: 150, maxMs: 150 } } } },
    });
    const before = suite.fragment.calls('searchStarsRecipient');
    const responses = await Promise.all(Array.from({ length: 100 }, () => check(gw, order({ username: '@carol' }))));
    expect(suite.fragment.calls('searchStarsRecipient') - before).toBe(1);
    expect(responses.map((res) => res.status)).toEqual(Array(100).fill(200));
    expect(new Set(responses.map((res) => res.body.code))).toEqual(new Set(['AVAILABLE']));
    expect(new Set(responses.map((res) => res.body.checked_at)).size).toBe(1);
  });

  it('two gateway replicas on one Redis share one Fragment call (Redis lock)', async () => {
    const first = await gateway();
    // Same reads prefix as the first replica, its own process-local state.
    const second = await suite.gateway({}, { redisKeyPrefix: first.bullPrefix });
    suite.fragment.configure({
      faults: { methods: { searchPremiumGiftRecipient: { latency: { minMs: 200, maxMs: 200 } } } },
    });
    const before = suite.fragment.calls('searchPremiumGiftRecipient');
    const body = order({ product: 'premium', username: '@dave', amount: 12 });
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => check(i % 2 === 0 ? first : second, body)),
    );
    expect(responses.every((res) => res.status === 200 && res.body.code === 'AVAILABLE')).toBe(true);
    expect(suite.fragment.calls('searchPremiumGiftRecipient') - before).toBe(1);
  });

  it('serves repeats from the cache, case-insensitively and for any amount', async () => {
    const gw = await gateway();
    const first = await check(gw, order({ username: '@Erin' }));
    const before = suite.fragment.calls('searchStarsRecipient');
    const again = await check(gw, order({ username: '@erin', amount: 5_000 }));
    expect(suite.fragment.calls('searchStarsRecipient')).toBe(before);
    expect(again.body).toMatchObject({
      code: 'AVAILABLE',
      username: '@erin',
      amount: 5_000,
      checked_at: first.body.checked_at,
    });
  });

  it('keeps positive and negative answers for their own TTLs', async () => {
    const gw = await gateway({ AVAILABILITY_CACHE_TTL_SECONDS: '1', AVAILABILITY_NEGATIVE_CACHE_TTL_SECONDS: '60' });
    await check(gw, order({ username: '@bob' }));
    await check(gw, order({ username: '@ghost_user' }));
    const before = suite.fragment.calls('searchStarsRecipient');
    await sleep(1_100);
    const positive = await check(gw, order({ username: '@bob' }));
    expect(suite.fragment.calls('searchStarsRecipient')).toBe(before + 1); // expired: asked again
    expect(positive.body.code).toBe('AVAILABLE');
    const negative = await check(gw, order({ username: '@ghost_user' }));
    expect(suite.fragment.calls('searchStarsRecipient')).toBe(before + 1); // still cached
    expect(negative.body.code).toBe('RECIPIENT_NOT_FOUND');
  });
});

describe('when Fragment cannot answer', () => {
  const expect503 = (res: request.Response) => {
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      code: 'AVAILABILITY_TEMPORARILY_UNAVAILABLE',
      action: 'Keep payment disabled and retry later.',
    });
    expect(res.body.available).toBeUndefined();
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(res.body.retry_after).toBe(Number(res.headers['retry-after']));
  };

  it.each<[string, Record<string, unknown>]>([
    ['a timeout', { timeoutRate: 1 }],
    ['a 502', { serverErrorRate: 1 }],
    ['a 503', { serverErrorRate: 1, serverErrorStatus: 503 }],
    ['a Cloudflare challenge', { cloudflareRate: 1 }],
    ['an unknown business error', { errorRate: 1, errorText: 'Something went wrong.' }],
  ])('%s → 503, never a guess; recovery is immediate', async (_label, faults) => {
    const gw = await gateway();
    suite.fragment.configure({ faults: { methods: { searchStarsRecipient: faults } } });
    expect503(await check(gw, order({ username: '@alice' })));
    suite.fragment.heal();
    const recovered = await check(gw, order({ username: '@alice' }));
    expect(recovered.status).toBe(200);
    expect(recovered.body.code).toBe('AVAILABLE');
  });

  it('a dead Fragment session → 503', async () => {
    const gw = await gateway();
    suite.fragment.configure({ faults: { sessionExpired: true } });
    expect503(await check(gw, order({ username: '@bob' })));
  });

  it('a hung Fragment is cut at the deadline, and its late answer fills the cache', async () => {
    const gw = await gateway({ FRAGMENT_READ_TIMEOUT_MS: '1500', AVAILABILITY_DEADLINE_MS: '300' });
    suite.fragment.configure({
      faults: { methods: { searchStarsRecipient: { latency: { minMs: 700, maxMs: 700 } } } },
    });
    const started = Date.now();
    expect503(await check(gw, order({ username: '@dave' })));
    expect(Date.now() - started).toBeLessThan(1_000);
    await sleep(700);
    const before = suite.fragment.calls('searchStarsRecipient');
    const later = await check(gw, order({ username: '@dave' }));
    expect(later.body.code).toBe('AVAILABLE');
    expect(suite.fragment.calls('searchStarsRecipient')).toBe(before);
  });

  it('cookies Fragment no longer accepts (a revoked stel_token) → 503', async () => {
    const gw = await gateway({
      FRAGMENT_COOKIES: `stel_ssid=${'d'.repeat(18)}_0000000000000000001; stel_dt=0; stel_token=${'0'.repeat(64)}`,
    });
    expect503(await check(gw, order({ username: '@carol' })));
  });
});

describe('limits that protect the Fragment login', () => {
  it('Fragment 429 → our 429 with its Retry-After; cached answers are still served; then recovery', async () => {
    const gw = await gateway();
    await check(gw, order({ username: '@alice' })); // cached before the storm
    suite.fragment.configure({
      faults: { methods: { searchStarsRecipient: { rateLimitRate: 1, retryAfterSeconds: 1 } } },
    });
    const limited = await check(gw, order({ username: '@bob' }));
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'AVAILABILITY_RATE_LIMITED', retry_after: 1 });
    expect(limited.body.message).toMatch(/Fragment asked this service to slow down/);
    expect(limited.headers['retry-after']).toBe('1');

    suite.fragment.heal();
    const callsInCooldown = suite.fragment.calls('searchStarsRecipient');
    const cached = await check(gw, order({ username: '@alice' }));
    expect(cached.status).toBe(200);
    expect(cached.body.code).toBe('AVAILABLE');
    const stillCooling = await check(gw, order({ username: '@carol' }));
    expect(stillCooling.status).toBe(429);
    expect(suite.fragment.calls('searchStarsRecipient')).toBe(callsInCooldown); // nothing sent while cooling down

    await sleep(1_100);
    const recovered = await check(gw, order({ username: '@carol' }));
    expect(recovered.status).toBe(200);
    expect(recovered.body.code).toBe('AVAILABLE');
  });

  it('a per-username budget stops one recipient from using up the login', async () => {
    const gw = await gateway({
      AVAILABILITY_LOOKUPS_PER_USERNAME_PER_MINUTE: '2',
      AVAILABILITY_NEGATIVE_CACHE_TTL_SECONDS: '0',
      READS_MEMORY_CACHE_MS: '0',
    });
    const before = suite.fragment.calls('searchStarsRecipient');
    expect((await check(gw, order({ username: '@typo_one' }))).body.code).toBe('RECIPIENT_NOT_FOUND');
    expect((await check(gw, order({ username: '@TYPO_ONE' }))).body.code).toBe('RECIPIENT_NOT_FOUND');
    const third = await check(gw, order({ username: '@typo_one' }));
    expect(third.status).toBe(429);
    expect(third.body.code).toBe('AVAILABILITY_RATE_LIMITED');
    expect(third.body.message).toMatch(/for this username/);
    expect(third.body.retry_after).toBeGreaterThanOrEqual(1);
    expect(third.body.retry_after).toBeLessThanOrEqual(60);
    expect(suite.fragment.calls('searchStarsRecipient') - before).toBe(2);
    // Other usernames are unaffected.
    expect((await check(gw, order({ username: '@typo_two' }))).status).toBe(200);
  });

  it('a global budget caps Fragment lookups across usernames', async () => {
    const gw = await gateway({ FRAGMENT_READS_PER_MINUTE: '3' });
    for (const username of ['@alice', '@bob', '@carol'])
      expect((await check(gw, order({ username }))).status).toBe(200);
    const fourth = await check(gw, order({ username: '@dave' }));
    expect(fourth.status).toBe(429);
    expect(fourth.body.code).toBe('AVAILABILITY_RATE_LIMITED');
    // Cached answers do not count.
    expect((await check(gw, order({ username: '@alice' }))).status).toBe(200);
  });
});
