/**
 * FragmentClient: the production adapter for Fragment's web API (docs/fragment-protocol.md §2–§5, §15).
 *
 * One instance = one Fragment login (one cookie session). Concurrency: every call that reads or
 * moves the page's flow state takes the instance's flow mutex, so those never overlap (Fragment
 * keeps flow state per cookie session, §12). A purchase flow is the calls that move it (sync →
 * init); to keep another caller's calls (another purchase) from landing between them, run the
 * whole flow inside `client.exclusive(...)`, whose client view calls straight through. The search
 * reads no flow state (its token is stable per username per session, §14.2): searches take their
 * own lane, one at a time, beside the flow, so the next order's search overlaps this order's init
 * (except a pack's with `newStateBeforeSearch`, which opens the page's state first and so takes the
 * flow mutex).
 * `get…Link` and `confirm` name their order and move only it; they and `deliveryHistory` (a page
 * read) take no lock. Use one client per login session; processes that share a session (worker
 * replicas) give their clients the same `leases` (`SessionLeases`, Redis), and every flow-state
 * call then holds the session's lease across processes too (docs/fragment-protocol.md §20.1).
 * Several sessions: `FragmentSessionPool`.
 *
 * Retries: reads (page GETs, search, update…State, a pack's price method, get…Link) retry on 429 and
 * 5xx/network/timeout with capped jittered backoff, ≤3 tries, Retry-After ≤60 s honoured. Writes
 * (`init…Request`, `confirmReq`) are never repeated on a lost answer: the FragmentError carries
 * `timedOut`/`outcomeUnknown` and the caller decides (docs/purchase-safety.md, Unknown outcomes). The only
 * repeats of a write are after a definitive rejection: "Access denied"/"Bad request" (re-read the
 * page for a fresh hash, once) and "Price was changed" on init (re-sync, ≤3 times).
 *
 * Credentials: cookies go on the wire only; logs carry method names, statuses and timings.
 *
 * This file is the session: the login's identity, its flow mutex and lease, and which calls take
 * them. The calls themselves are in client-calls/ (purchase calls, price reads, flow sync, account reads).
 */
import type { Quantities } from '@starsgate/domain';
import { createHash } from 'node:crypto';
import { ApiSession } from './api-session';
import { accountReads, flowSync, priceCalls, purchaseCalls } from './client-calls';
import type { ClientContext } from './client-calls/context';
import type { PolledOrderState } from './client-calls/flow-sync';
import type { ConfirmArgs, GetTransactionArgs, InitRequestArgs } from './client-calls/purchase-calls';
import { PersistedCookies, type RedisCookieStore } from './cookie-store';
import { newFlowStates } from './flow-state';
import { readHistory, type HistoryRead, type HistoryReadOptions } from './history-read';
import { Mutex } from './mutex';
import type { AccountProfile } from './profile-parsing';
import { fragmentPack } from './products';
import { orderQuantities } from './request-validation';
import { ApiHashCache, CookieJar } from './session';
import type { SessionLeases } from './session-lease';
import {
  DEFAULT_RETRY_POLICY,
  DEFAULT_USER_AGENT,
  Transport,
  silentLogger,
  type FragmentLogger,
  type RetryPolicy,
} from './transport';
import type {
  FragmentProduct,
  FragmentTransaction,
  OrderState,
  PriceQuote,
  RecipientInfo,
  TonConnectDevice,
} from './types';

export interface FragmentClientOptions {
  /** `https://fragment.com`, or the sandbox simulator, e.g. `http://127.0.0.1:8090/fragment`. */
  baseUrl: string;
  /** Browser cookie header: `stel_ssid=…; stel_dt=…; stel_token=…; stel_ton_token=…`. A credential. */
  cookies: string;
  /** HTTP/HTTPS proxy for this login's calls (FRAGMENT_PROXY_URL); may carry credentials. */
  proxyUrl?: string;
  userAgent?: string;
  /** Per HTTP call, default 10 000 ms. */
  timeoutMs?: number;
  /** API hash cache lifetime, default 120 000 ms (§12: ≤ 2 min). */
  hashTtlMs?: number;
  /** Minimum spacing between HTTP calls, default 0. Production: ~1 000 for polling etiquette. */
  minIntervalMs?: number;
  /** Read-retry policy; defaults: 3 tries, 500 ms doubling to 8 s, Retry-After ≤ 60 s. */
  retry?: Partial<RetryPolicy>;
  /** Re-syncs on "Price was changed" before init gives up (default 3). */
  priceChangedRetries?: number;
  /** TonConnect device sent with link/confirm when the call gives none. */
  device?: TonConnectDevice;
  /**
   * The session's lease shared by every process that drives this login (worker replicas):
   * every call that reads or moves the page's flow state, and every `exclusive` flow, holds it
   * besides the in-process mutex (docs/fragment-protocol.md §20.1). Without it, one process alone.
   */
  leases?: SessionLeases;
  /**
   * Where the login's cookies are kept as Fragment rotates them (Redis): every `Set-Cookie` is
   * saved, and each request sends what the store holds, so replicas and a restarted process use
   * the current cookies (docs/fragment-protocol.md §20.2). Without it, this process's jar alone.
   */
  cookieStore?: RedisCookieStore;
  logger?: Partial<FragmentLogger>;
}

export const DEFAULT_DEVICE: TonConnectDevice = {
  platform: 'linux',
  appName: 'starsgate',
  appVersion: '0.1.0',
  maxProtocolVersion: 2,
  features: ['SendTransaction', { name: 'SendTransaction', maxMessages: 4 }],
};

/** `pollOrderStateIfIdle` found the session's lease held by another process. */
const NOT_IDLE = Symbol('not idle');

/** 12 hex of SHA-256: a stable, non-secret name for a credential. */
function shortId(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}

export class FragmentClient {
  private readonly jar: CookieJar;
  /** What the calls in client-calls/ share: the API session, the flow states, the lease check. */
  private readonly ctx: ClientContext;
  /** Held by every call that reads or moves the page's flow state. */
  private readonly mutex = new Mutex();
  /** Searches, one at a time per session, beside the flow. */
  private readonly searchLane = new Mutex();
  private readonly leases: SessionLeases | undefined;
  private readonly configuredSessionId: string;
  private readonly configuredAccountId: string;

  constructor(options: FragmentClientOptions) {
    if (!options.baseUrl) throw new TypeError('baseUrl is required');
    this.jar = new CookieJar(options.cookies ?? '');
    this.configuredSessionId = shortId(this.jar.get('stel_ssid') ?? this.jar.cookieHeader());
    const token = this.jar.get('stel_token');
    this.configuredAccountId = token !== undefined ? shortId(`account:${token}`) : this.configuredSessionId;
    const logger = { ...silentLogger, ...options.logger };
    const retryPolicy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.leases = options.leases;
    const transport = new Transport({
      baseUrl: options.baseUrl,
      jar: this.jar,
      userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
      timeoutMs: options.timeoutMs ?? 10_000,
      minIntervalMs: options.minIntervalMs ?? 0,
      logger,
      ...(options.proxyUrl ? { proxyUrl: options.proxyUrl } : {}),
    });
    const hash = new ApiHashCache(options.hashTtlMs ?? 120_000);
    const persisted = options.cookieStore
      ? new PersistedCookies(this.jar, options.cookieStore, options.cookies ?? '', (message) => logger.warn(message))
      : undefined;
    const flows = newFlowStates();
    this.ctx = {
      api: new ApiSession(transport, hash, flows, retryPolicy, logger, token !== undefined, persisted),
      flows,
      logger,
      priceChangedRetries: options.priceChangedRetries ?? 3,
      device: options.device ?? DEFAULT_DEVICE,
      lease: { guard: undefined },
    };
  }

  /**
   * Runs `flow` while holding this login's flow mutex: no other flow call on this client
   * interleaves. `flow` gets a view of this client whose calls skip the mutex it already holds;
   * once `flow` has settled, the view takes the mutex again like the client itself. With
   * `leases`, the whole flow holds the session's lease too.
   */
  exclusive<T>(flow: (client: this) => Promise<T>): Promise<T> {
    return this.locked(async () => {
      let open = true;
      const locked = <U>(task: () => Promise<U>): Promise<U> => (open ? task() : this.locked(task));
      const view = Object.create(this, { locked: { value: locked } }) as this;
      try {
        return await flow(view);
      } finally {
        open = false;
      }
    });
  }

  /** Names of the cookies currently held (values never exposed). */
  cookieNames(): string[] {
    return this.jar.names();
  }

  /**
   * A stable, non-secret name for this login's session: 12 hex of SHA-256 over the configured
   * `stel_ssid`, fixed at construction (a later Set-Cookie does not rename it). An order can only
   * be confirmed by the session that created it, so purchases record this.
   */
  sessionId(): string {
    return this.configuredSessionId;
  }

  /**
   * A stable, non-secret name for the Telegram login (`stel_token`, §4) this session belongs to:
   * sessions of one account see one purchase history. Without a login cookie, the session's id.
   */
  accountId(): string {
    return this.configuredAccountId;
  }

  // ---------------------------------------------------------------- purchase calls

  /** `search…Recipient`: @username (or `t.me/…`) → the recipient token. */
  searchRecipient(product: FragmentProduct, username: string, order: number | Quantities): Promise<RecipientInfo> {
    const routes = fragmentPack(product);
    const quantities = orderQuantities(product, order);
    // A search that first opens the page's state (`update…State {mode: "new"}`, `newStateBeforeSearch`)
    // moves the session's flow state: it holds the flow mutex and the session's lease like any flow
    // call, so it never lands inside another replica's flow (docs/fragment-protocol.md §20.1).
    // Other searches read no flow state and take their own lane beside the flow.
    const run = <T>(task: () => Promise<T>): Promise<T> =>
      routes.newStateBeforeSearch ? this.locked(task) : this.searchLane.run(task);
    return run(() => purchaseCalls.searchRecipient(this.ctx, product, username, quantities));
  }

  /**
   * `init…Request` after syncing state (and the price read, for a pack whose price read is
   * `beforeInit`). On "Price was changed" re-syncs and retries (≤ priceChangedRetries). Never
   * retried on a lost answer: a timeout surfaces as UPSTREAM_UNAVAILABLE with
   * `timedOut`/`outcomeUnknown` (an order may exist).
   */
  initRequest(args: InitRequestArgs): Promise<{ reqId: string; amount: string }> {
    return this.locked(() => purchaseCalls.initRequest(this.ctx, args));
  }

  /**
   * `get…Link` with `transaction=1`: the TonConnect request to sign, and how to confirm it. It
   * names its order (`id`) and moves only that order (to awaiting payment, §14), not the page's
   * flow state, so like `confirm` it does not wait for the flow mutex: the session inits the next
   * order meanwhile.
   */
  async getTransaction(args: GetTransactionArgs): Promise<FragmentTransaction> {
    return purchaseCalls.getTransaction(this.ctx, args);
  }

  /**
   * POSTs `confirm_method` with its params, the signed external-in message BOC, account and device
   * (§8.1). Not retried on a lost answer (the error says `outcomeUnknown`); resolves on `ok: true`.
   * It names its order (`confirm_params`) and leaves the page's flow state alone, so it does not
   * wait for the flow mutex: confirms of a batch go out while the next order is being created.
   */
  async confirm(args: ConfirmArgs): Promise<'confirmed' | 'not_requested'> {
    return purchaseCalls.confirm(this.ctx, args);
  }

  // ---------------------------------------------------------------- flow state

  /** `update…State` echoing `mode`/`lv`/`dh` (step 2; also the completion poll). */
  syncState(product: FragmentProduct): Promise<OrderState> {
    return this.locked(() => flowSync.updateState(this.ctx, product));
  }

  /**
   * `pollOrderState` only when no purchase flow holds or waits for this session; undefined
   * otherwise. For callers to whom the status screen is a fallback not worth queueing behind
   * every order being created.
   */
  async pollOrderStateIfIdle(product: FragmentProduct): Promise<PolledOrderState | undefined> {
    if (this.mutex.busy()) return undefined;
    const polled = await this.lockedRun(() => flowSync.pollState(this.ctx, product), false);
    return polled === NOT_IDLE ? undefined : polled;
  }

  /**
   * The session's flow state. `done` is about the session's latest order, not a given one:
   * `statusText` is the visible text of the page's status screen (what was sent to whom, each
   * pack's `statusTextAmount`), which callers match against their own order before trusting `done`.
   */
  pollOrderState(product: FragmentProduct): Promise<PolledOrderState> {
    return this.locked(() => flowSync.pollState(this.ctx, product));
  }

  // ---------------------------------------------------------------- price reads

  /**
   * A product's `update_prices` read (its pack's method `{quantity}` → `cur_price`): the
   * current price of `quantity` (binding only at init).
   */
  quoteQuantity(product: FragmentProduct, quantity: number): Promise<PriceQuote> {
    return this.locked(() => priceCalls.quoteQuantity(this.ctx, product, quantity));
  }

  /**
   * A product's `page_options` prices (its page's option radios, §9), one per
   * option its domain pack sells; an option without a readable price is a format error.
   */
  optionPrices(product: FragmentProduct): Promise<Record<number, PriceQuote>> {
    return this.locked(() => priceCalls.optionPrices(this.ctx, product));
  }

  /**
   * A product's `update_options` prices: its method answers, for `quantities`, the price of every
   * option in `options_html` (its pack's method and option field).
   */
  quantityOptionPrices(product: FragmentProduct, quantities: Quantities): Promise<Record<number, PriceQuote>> {
    return this.locked(() => priceCalls.quantityOptionPrices(this.ctx, product, quantities));
  }

  /** USD per TON from the `ajInit` state of the page that carries it (`carriesTonRate`), as the decimal string Fragment wrote. */
  tonRate(): Promise<string> {
    return this.locked(() => priceCalls.tonRate(this.ctx));
  }

  // ---------------------------------------------------------------- account reads (no lock)

  /**
   * The account's delivered orders of `product`, newest first, from its history page (§5.3,
   * §8.3): unlike `done`, which is the session's latest order only, each row names its own order,
   * and failed payments never appear. A page read outside the flow mutex.
   */
  deliveryHistory(product: FragmentProduct, options: HistoryReadOptions = {}): Promise<HistoryRead> {
    return readHistory(this.ctx.api, product, options);
  }

  /**
   * A read-only look at this login, as an operator's check needs it: the product page loads, its
   * API hash, the Telegram login (`unAuth`: logged-out pages carry a hash too), the TON wallet's
   * login (`Wallet.init` `logged_in`) and the connected wallet (raw address) when it names one.
   */
  async sessionStatus(): Promise<accountReads.SessionStatus> {
    return accountReads.sessionStatus(this.ctx);
  }

  /** A page of the site as served (read-retried), for checks that read its markup themselves. */
  async pageHtml(path: string): Promise<string> {
    return accountReads.pageHtml(this.ctx, path);
  }

  /**
   * `/my/profile`, read only (docs/fragment-protocol.md §19.3): identity verified, the linked
   * wallet and whether it is verified. A page read outside the flow mutex; a logged-out session
   * is redirected (SESSION_INVALID).
   */
  async profile(): Promise<AccountProfile> {
    return accountReads.profile(this.ctx);
  }

  // ---------------------------------------------------------------- the session's lock

  /** Runs `task` holding the flow mutex and lease (an `exclusive` view replaces this with a direct call). */
  private locked<T>(task: () => Promise<T>): Promise<T> {
    return this.lockedRun(task) as Promise<T>;
  }

  /**
   * The mutex, then the session's lease when there are `leases`: confirmed before each call that
   * moves the page's flow state (a lost lease stops the task before that call is sent), released
   * when the task settles. `wait: false` gives up at once (NOT_IDLE) when another process holds it.
   */
  private lockedRun<T>(task: () => Promise<T>, wait = true): Promise<T | typeof NOT_IDLE> {
    return this.mutex.run(async () => {
      const leases = this.leases;
      if (!leases) return task();
      const held = wait
        ? await leases.acquire(this.configuredSessionId)
        : await leases.tryAcquire(this.configuredSessionId);
      if (!held) return NOT_IDLE;
      this.ctx.lease.guard = () => held.confirm();
      try {
        return await task();
      } finally {
        this.ctx.lease.guard = undefined;
        // A release that fails leaves the lease to expire: the session is free after its TTL.
        await held.release().catch((error: unknown) => {
          this.ctx.logger.warn(`fragment session lease: release failed (${String(error)}); it expires on its own`);
        });
      }
    });
  }
}
