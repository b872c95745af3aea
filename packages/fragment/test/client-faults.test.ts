/**
 * FragmentClient error mapping and retry behaviour against the real Fragment simulator's
 * directory and fault switches (docs/fragment-protocol.md §11, §12, §14.4).
 */
import { defaultFaults, type FragmentConfigPatch } from '@starsgate/sandbox/fragment';
import { FragmentClient, FragmentError, type FragmentClientOptions, type FragmentErrorKind } from '../src';
import { startSimulator, type SimulatorServer } from './support/simulator-server';
import { TestWallet } from './support/test-wallet';

let server: SimulatorServer;
const payer = new TestWallet('faults-payer');

beforeAll(async () => {
  server = await startSimulator();
});

afterAll(async () => {
  await server?.close();
});

afterEach(() => {
  // Back to a healthy simulator: clear per-method faults, restore switches and hash rotation.
  // `null` deletes a key (documented in the simulator's mergeInto); its patch type omits null.
  server.sim.configure({ faults: { methods: null } } as unknown as FragmentConfigPatch);
  server.sim.configure({
    faults: { ...defaultFaults(), methods: {} },
    hashRotationMs: 30 * 60_000,
    validitySeconds: 300,
  });
});

function newClient(options: Partial<FragmentClientOptions> = {}): FragmentClient {
  return new FragmentClient({
    baseUrl: server.baseUrl,
    cookies: server.freshCookies(),
    timeoutMs: 2_000,
    retry: { baseDelayMs: 20, maxDelayMs: 100 },
    ...options,
  });
}

const calls = (key: string): number => server.sim.stats().calls[key] ?? 0;

async function caught(promise: Promise<unknown>): Promise<FragmentError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof FragmentError) return error;
    throw error;
  }
  throw new Error('expected a FragmentError, the call succeeded');
}

async function expectKind(promise: Promise<unknown>, kind: FragmentErrorKind): Promise<FragmentError> {
  const error = await caught(promise);
  expect(error.kind).toBe(kind);
  return error;
}

describe('recipient errors from the demo directory', () => {
  it.each<[string, 'stars' | 'premium', FragmentErrorKind, string]>([
    ['nobody_here', 'stars', 'RECIPIENT_NOT_FOUND', 'No Telegram users found.'],
    ['nobody_here', 'premium', 'RECIPIENT_NOT_FOUND', 'No Telegram users found.'],
    ['@helper_bot', 'stars', 'RECIPIENT_INELIGIBLE', 'Please enter a username assigned to a user.'],
    ['@news_channel', 'premium', 'RECIPIENT_INELIGIBLE', 'Please enter a username assigned to a user.'],
    ['frozen_fay', 'stars', 'RECIPIENT_INELIGIBLE', "You can't gift Telegram Stars to this account at this moment."],
    ['premium_pat', 'premium', 'PREMIUM_ALREADY_ACTIVE', 'This account is already subscribed to Telegram Premium.'],
  ])('%s / %s → %s', async (username, product, kind, text) => {
    const error = await expectKind(newClient().searchRecipient(product, username, product === 'stars' ? 50 : 3), kind);
    expect(error.upstreamText).toBe(text);
    expect(error.retryable).toBe(false);
  });

  it('lets the other product through for frozen_fay and premium_pat', async () => {
    const client = newClient();
    await expect(client.searchRecipient('premium', 'frozen_fay', 3)).resolves.toMatchObject({ name: 'Fay Frost' });
    await expect(client.searchRecipient('stars', 'premium_pat', 50)).resolves.toMatchObject({ name: 'Pat Premium' });
  });

  it('maps "already subscribed" reported only at init', async () => {
    server.sim.configure({ faults: { premiumActiveAt: 'init' } });
    const client = newClient();
    const found = await client.searchRecipient('premium', 'premium_pat', 3);
    await expectKind(
      client.initRequest({ product: 'premium', recipient: found.recipient, amount: 3, paymentMethod: 'ton' }),
      'PREMIUM_ALREADY_ACTIVE',
    );
  });
});

describe('the top-up opens a new page state before each search (topupSearchNeedsState)', () => {
  it('searches, inits and searches again, each search after its own updateAdsTopupState {mode: "new"}', async () => {
    server.sim.configure({ faults: { topupSearchNeedsState: true } });
    const client = newClient();
    const before = { state: calls('updateAdsTopupState'), search: calls('searchAdsTopupRecipient') };
    const found = await client.searchRecipient('gram', '@alice', 3);
    await client.initRequest({ product: 'gram', recipient: found.recipient, amount: 3, paymentMethod: 'ton' });
    // The init used the opened state up: the next order's search opens another.
    await expect(client.searchRecipient('gram', '@alice', 5)).resolves.toMatchObject({ recipient: expect.any(String) });
    expect(calls('searchAdsTopupRecipient') - before.search).toBe(2);
    expect(calls('updateAdsTopupState') - before.state).toBeGreaterThanOrEqual(2);
  });

  it("Stars and Premium searches are unchanged (the fault is the top-up's)", async () => {
    server.sim.configure({ faults: { topupSearchNeedsState: true } });
    const client = newClient();
    const before = calls('updateStarsBuyState');
    await expect(client.searchRecipient('stars', '@alice', 50)).resolves.toMatchObject({ name: expect.any(String) });
    expect(calls('updateStarsBuyState')).toBe(before);
  });
});

describe('"Price was changed"', () => {
  it('re-syncs and retries init until it passes', async () => {
    const client = newClient();
    const found = await client.searchRecipient('stars', 'alice', 50);
    server.sim.configure({ faults: { priceChangedNextInits: 2 } });
    const before = { init: calls('initBuyStarsRequest'), sync: calls('updateStarsBuyState') };
    const order = await client.initRequest({
      product: 'stars',
      recipient: found.recipient,
      amount: 50,
      paymentMethod: 'ton',
    });
    expect(order.amount).toBe('0.4412');
    expect(calls('initBuyStarsRequest') - before.init).toBe(3);
    expect(calls('updateStarsBuyState') - before.sync).toBe(3); // a sync before every init
  });

  it('gives up after 3 re-syncs with a retryable PRICE_CHANGED', async () => {
    const client = newClient();
    const found = await client.searchRecipient('stars', 'alice', 50);
    server.sim.configure({ faults: { priceChangedNextInits: 10 } });
    const before = calls('initBuyStarsRequest');
    const error = await expectKind(
      client.initRequest({ product: 'stars', recipient: found.recipient, amount: 50, paymentMethod: 'ton' }),
      'PRICE_CHANGED',
    );
    expect(error.retryable).toBe(true);
    expect(calls('initBuyStarsRequest') - before).toBe(4);
  });
});

describe('rate limiting (429)', () => {
  it('waits Retry-After and retries a read', async () => {
    const client = newClient();
    await client.tonRate(); // page and hash first, so only the search is limited
    server.sim.configure({
      faults: { methods: { searchStarsRecipient: { rateLimitRate: 1, retryAfterSeconds: 1, count: 1 } } },
    });
    const started = Date.now();
    await expect(client.searchRecipient('stars', 'alice', 50)).resolves.toMatchObject({ name: 'Alice Anders' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
  });

  it('surfaces a Retry-After longer than 60 s at once, with retryAfterMs', async () => {
    const client = newClient();
    await client.tonRate();
    server.sim.configure({
      faults: { methods: { searchStarsRecipient: { rateLimitRate: 1, retryAfterSeconds: 120, count: 1 } } },
    });
    const before = calls('searchStarsRecipient');
    const error = await expectKind(client.searchRecipient('stars', 'alice', 50), 'RATE_LIMITED');
    expect(error.retryAfterMs).toBe(120_000);
    expect(error.retryable).toBe(true);
    expect(calls('searchStarsRecipient') - before).toBe(1);
  });

  it('stops after 3 tries', async () => {
    const client = newClient();
    await client.tonRate();
    server.sim.configure({
      faults: { methods: { updateStarsPrices: { rateLimitRate: 1, retryAfterSeconds: 0, count: 5 } } },
    });
    const before = calls('updateStarsPrices');
    await expectKind(client.quoteQuantity('stars', 50), 'RATE_LIMITED');
    expect(calls('updateStarsPrices') - before).toBe(3);
  });

  it("counts a page re-read inside a read as part of that read's 3 tries (no nested retries)", async () => {
    server.sim.configure({ faults: { methods: { page: { rateLimitRate: 1, retryAfterSeconds: 0, count: 5 } } } });
    const before = calls('GET /stars/buy');
    await expectKind(newClient().searchRecipient('stars', 'alice', 50), 'RATE_LIMITED');
    expect(calls('GET /stars/buy') - before).toBe(3);
  });

  it('does not repeat a rate-limited init (the caller decides)', async () => {
    const client = newClient();
    const found = await client.searchRecipient('stars', 'alice', 50);
    server.sim.configure({
      faults: { methods: { initBuyStarsRequest: { rateLimitRate: 1, retryAfterSeconds: 1, count: 1 } } },
    });
    const error = await expectKind(
      client.initRequest({ product: 'stars', recipient: found.recipient, amount: 50, paymentMethod: 'ton' }),
      'RATE_LIMITED',
    );
    expect(error.outcomeUnknown).toBe(false);
  });
});

describe('Cloudflare, 5xx and timeouts', () => {
  it('maps a 403 "Just a moment…" page to CLOUDFLARE, on page GETs and on the API', async () => {
    server.sim.configure({ faults: { methods: { page: { cloudflareRate: 1, count: 1 } } } });
    const pageError = await expectKind(newClient().tonRate(), 'CLOUDFLARE');
    expect(pageError.httpStatus).toBe(403);
    expect(pageError.retryable).toBe(true);

    const client = newClient();
    await client.tonRate();
    server.sim.configure({ faults: { methods: { searchStarsRecipient: { cloudflareRate: 1, count: 1 } } } });
    await expectKind(client.searchRecipient('stars', 'alice', 50), 'CLOUDFLARE');
  });

  it('maps a Cloudflare block (error 1020) to CLOUDFLARE, never to a dead session: API and page', async () => {
    const client = newClient();
    await client.tonRate();
    // The API gets Cloudflare's plain-text variant: only the status and headers say Cloudflare.
    server.sim.configure({ faults: { methods: { searchStarsRecipient: { cloudflareBlockRate: 1, count: 1 } } } });
    expect(await expectKind(client.searchRecipient('stars', 'alice', 50), 'CLOUDFLARE')).toMatchObject({
      httpStatus: 403,
      retryable: true,
      cloudflare: 'block',
      outcomeUnknown: false,
    });

    server.sim.configure({ faults: { methods: { page: { cloudflareBlockRate: 1, count: 1 } } } });
    const pageError = await expectKind(newClient().tonRate(), 'CLOUDFLARE');
    expect(pageError).toMatchObject({ httpStatus: 403, cloudflare: 'block' });
  });

  it.each([
    ['cloudflareBlock', 'block'],
    ['cloudflareChallenge', 'challenge'],
  ] as const)('with the host-wide %s fault every call is CLOUDFLARE (%s), and the log says so', async (fault, stop) => {
    const warnings: string[] = [];
    const client = newClient({ logger: { warn: (message) => warnings.push(message) }, retry: { maxTries: 1 } });
    server.sim.configure({ faults: { [fault]: true } });
    expect(await expectKind(client.sessionStatus(), 'CLOUDFLARE')).toMatchObject({ cloudflare: stop });
    expect(await expectKind(client.searchRecipient('stars', 'alice', 50), 'CLOUDFLARE')).toMatchObject({
      cloudflare: stop,
    });
    expect(warnings.some((line) => /blocked by Cloudflare .*use a proxy/.test(line))).toBe(true);
    server.sim.configure({ faults: { [fault]: false } });
    await expect(client.searchRecipient('stars', 'alice', 50)).resolves.toMatchObject({ name: expect.any(String) });
  });

  it('retries a read through 502s', async () => {
    const client = newClient();
    await client.tonRate();
    server.sim.configure({ faults: { methods: { searchStarsRecipient: { serverErrorRate: 1, count: 2 } } } });
    await expect(client.searchRecipient('stars', 'bob', 50)).resolves.toMatchObject({ name: 'Bob Brown' });
  });

  it('retries a read that timed out', async () => {
    const client = newClient({ timeoutMs: 300 });
    await client.tonRate();
    server.sim.configure({ faults: { methods: { searchStarsRecipient: { timeoutRate: 1, count: 1 } } } });
    await expect(client.searchRecipient('stars', 'bob', 50)).resolves.toMatchObject({ name: 'Bob Brown' });
  });

  it('reports an init timeout as timedOut with an unknown outcome, without retrying', async () => {
    const client = newClient({ timeoutMs: 300 });
    const found = await client.searchRecipient('stars', 'alice', 50);
    server.sim.configure({ faults: { methods: { initBuyStarsRequest: { timeoutRate: 1, count: 1 } } } });
    const before = calls('initBuyStarsRequest');
    const error = await expectKind(
      client.initRequest({ product: 'stars', recipient: found.recipient, amount: 50, paymentMethod: 'ton' }),
      'UPSTREAM_UNAVAILABLE',
    );
    expect(error.timedOut).toBe(true);
    expect(error.outcomeUnknown).toBe(true);
    expect(calls('initBuyStarsRequest') - before).toBe(1);
  });

  it('reports a confirm timeout as timedOut with an unknown outcome, and a 5xx on init as unknown too', async () => {
    const client = newClient({ timeoutMs: 300 });
    const found = await client.searchRecipient('stars', 'alice', 50);
    const order = await client.initRequest({
      product: 'stars',
      recipient: found.recipient,
      amount: 50,
      paymentMethod: 'ton',
    });
    const account = payer.account();
    const tx = await client.getTransaction({ product: 'stars', reqId: order.reqId, account });
    server.sim.configure({ faults: { confirm: 'timeout' } });
    const before = calls('confirmReq');
    const error = await expectKind(
      client.confirm({
        confirmMethod: tx.confirmMethod,
        confirmParams: tx.confirmParams,
        boc: await payer.sign(server.chain, tx),
        account,
      }),
      'UPSTREAM_UNAVAILABLE',
    );
    expect(error).toMatchObject({ timedOut: true, outcomeUnknown: true });
    expect(calls('confirmReq') - before).toBe(1);

    server.sim.configure({ faults: { methods: { initBuyStarsRequest: { serverErrorRate: 1, count: 1 } } } });
    const fiveHundred = await expectKind(
      client.initRequest({ product: 'stars', recipient: found.recipient, amount: 50, paymentMethod: 'ton' }),
      'UPSTREAM_UNAVAILABLE',
    );
    expect(fiveHundred).toMatchObject({ timedOut: false, outcomeUnknown: true, httpStatus: 502 });
  });

  it('reports a refused connection as not executed', async () => {
    const client = new FragmentClient({ baseUrl: 'http://127.0.0.1:9/fragment', cookies: '', retry: { maxTries: 1 } });
    const error = await expectKind(client.tonRate(), 'UPSTREAM_UNAVAILABLE');
    expect(error).toMatchObject({ timedOut: false, outcomeUnknown: false });
  });
});

describe('session', () => {
  it('expired login: logged-out page without hash → SESSION_INVALID, also for a client with a cached hash', async () => {
    const warm = newClient();
    await warm.searchRecipient('stars', 'alice', 50);
    server.sim.configure({ faults: { sessionExpired: true } });
    const before = calls('GET /stars/buy');
    const error = await expectKind(warm.searchRecipient('stars', 'alice', 50), 'SESSION_INVALID');
    expect(error.retryable).toBe(false);
    expect(calls('GET /stars/buy') - before).toBe(1); // "Access denied" → page re-read once → no hash
    await expectKind(newClient().quoteQuantity('stars', 50), 'SESSION_INVALID');
  });

  it('cookies Fragment no longer accepts → SESSION_INVALID', async () => {
    const client = newClient({ cookies: server.freshCookies().replace(/stel_token=[^;]+/, 'stel_token=00ff') });
    await expectKind(client.optionPrices('premium'), 'SESSION_INVALID');
  });

  it.each(['Access denied', 'Bad request'] as const)(
    'a rotated hash ("%s") → page re-read and the call repeated once',
    async (text) => {
      server.sim.configure({ hashRotationMs: 300, faults: { badHashText: text } });
      const infos: string[] = [];
      const client = newClient({ hashTtlMs: 60_000, logger: { info: (m: string) => infos.push(m) } });
      await client.searchRecipient('stars', 'alice', 50);
      await new Promise((r) => setTimeout(r, 400));
      const before = { page: calls('GET /stars/buy'), search: calls('searchStarsRecipient') };
      await expect(client.searchRecipient('stars', 'bob', 50)).resolves.toMatchObject({ name: 'Bob Brown' });
      expect(calls('GET /stars/buy') - before.page).toBe(1);
      expect(calls('searchStarsRecipient') - before.search).toBe(2);
      expect(infos.some((m) => m.includes('rejected'))).toBe(true);
    },
  );

  it('need_ton at init → SESSION_INVALID', async () => {
    const client = newClient();
    const found = await client.searchRecipient('stars', 'alice', 50);
    server.sim.configure({ faults: { needTon: true } });
    const error = await expectKind(
      client.initRequest({ product: 'stars', recipient: found.recipient, amount: 50, paymentMethod: 'ton' }),
      'SESSION_INVALID',
    );
    expect(error.message).toContain('need_ton');
  });
});

describe('link and confirm outcomes', () => {
  async function pendingOrder(client: FragmentClient) {
    const found = await client.searchRecipient('stars', 'dave', 50);
    return client.initRequest({ product: 'stars', recipient: found.recipient, amount: 50, paymentMethod: 'ton' });
  }

  it('need_verify → VERIFICATION_REQUIRED with the popup text', async () => {
    const client = newClient();
    const order = await pendingOrder(client);
    server.sim.configure({ faults: { needVerify: true } });
    const error = await expectKind(
      client.getTransaction({ product: 'stars', reqId: order.reqId, account: payer.account() }),
      'VERIFICATION_REQUIRED',
    );
    expect(error.popup).toContain('verify your identity');
    expect(error.retryable).toBe(false);
  });

  it('an expired order → ORDER_EXPIRED; an unknown req_id → ORDER_EXPIRED', async () => {
    server.sim.configure({ validitySeconds: 1 });
    const client = newClient();
    const order = await pendingOrder(client);
    await new Promise((r) => setTimeout(r, 2_200));
    const expired = await expectKind(
      client.getTransaction({ product: 'stars', reqId: order.reqId, account: payer.account() }),
      'ORDER_EXPIRED',
    );
    expect(expired.upstreamText).toBe('This request has expired. Please try again.');
    await expectKind(
      client.getTransaction({ product: 'stars', reqId: 'no-such-request-id-000', account: payer.account() }),
      'ORDER_EXPIRED',
    );
  });

  it('"Unknown error" on a link call: the page is re-read once and the link asked again', async () => {
    const client = newClient();
    const order = await pendingOrder(client);
    server.sim.configure({
      faults: { methods: { getBuyStarsLink: { errorRate: 1, errorText: 'Unknown error', count: 1 } } },
    });
    const before = { page: calls('GET /stars/buy'), link: calls('getBuyStarsLink') };
    await expect(
      client.getTransaction({ product: 'stars', reqId: order.reqId, account: payer.account() }),
    ).resolves.toMatchObject({ messages: expect.any(Array) });
    expect(calls('GET /stars/buy') - before.page).toBe(1);
    expect(calls('getBuyStarsLink') - before.link).toBe(2);
  });

  it('"Unknown error" twice on a link call fails, after one page refresh only', async () => {
    const client = newClient({ retry: { maxTries: 1 } });
    const order = await pendingOrder(client);
    server.sim.configure({
      faults: { methods: { getBuyStarsLink: { errorRate: 1, errorText: 'Unknown error', count: 2 } } },
    });
    const before = calls('GET /stars/buy');
    const error = await expectKind(
      client.getTransaction({ product: 'stars', reqId: order.reqId, account: payer.account() }),
      'UPSTREAM_REJECTED',
    );
    expect(error.upstreamText).toBe('Unknown error');
    expect(calls('GET /stars/buy') - before).toBe(1);
  });

  it('"Too many requests" is a rate limit (retry later), on a read and on an init, never executed', async () => {
    const client = newClient();
    server.sim.configure({
      faults: { methods: { searchStarsRecipient: { errorRate: 1, errorText: 'Too many requests', count: 1 } } },
    });
    expect(await expectKind(client.searchRecipient('stars', 'dave', 50), 'RATE_LIMITED')).toMatchObject({
      retryable: true,
    });
    const found = await client.searchRecipient('stars', 'dave', 50);
    server.sim.configure({
      faults: { methods: { initBuyStarsRequest: { errorRate: 1, errorText: 'Too many requests', count: 1 } } },
    });
    const error = await expectKind(
      client.initRequest({ product: 'stars', recipient: found.recipient, amount: 50, paymentMethod: 'ton' }),
      'RATE_LIMITED',
    );
    expect(error).toMatchObject({ retryable: true, outcomeUnknown: false });
  });

  it('"Invalid method" is a protocol error, not a refusal of the order', async () => {
    const client = newClient();
    server.sim.configure({
      faults: { methods: { searchStarsRecipient: { errorRate: 1, errorText: 'Invalid method', count: 1 } } },
    });
    expect(await expectKind(client.searchRecipient('stars', 'dave', 50), 'UNEXPECTED_RESPONSE')).toMatchObject({
      retryable: false,
    });
  });

  it("confirm rejections keep Fragment's text", async () => {
    const client = newClient();
    const order = await pendingOrder(client);
    const account = payer.account();
    const tx = await client.getTransaction({ product: 'stars', reqId: order.reqId, account });
    // A bare transfer body instead of the external-in message (strict confirm, docs/fragment-protocol.md §8.1).
    const invalid = await expectKind(
      client.confirm({
        confirmMethod: tx.confirmMethod,
        confirmParams: tx.confirmParams,
        boc: tx.messages[0]!.payload!,
        account,
      }),
      'UPSTREAM_REJECTED',
    );
    expect(invalid.upstreamText).toBe('Invalid transaction. Please try again.');
    server.sim.configure({ faults: { confirm: 'error' } });
    const rejected = await expectKind(
      client.confirm({
        confirmMethod: tx.confirmMethod,
        confirmParams: tx.confirmParams,
        boc: await payer.sign(server.chain, tx),
        account,
      }),
      'UPSTREAM_REJECTED',
    );
    expect(rejected.upstreamText).toBe('Transaction not found. Please try again.');
  });
});
