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
 * (except the top-up's, which opens the page's state first and so takes the flow mutex).
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
 */
import { GRAM_DECIMALS, lineAmount, parseUnits, productDescription, type Quantities } from '@starsgate/domain';
import { createHash } from 'node:crypto';
import { parseAmountToNano } from './amounts';
import { ApiSession, assertPageUsable } from './api-session';
import { readHistory, type HistoryRead, type HistoryReadOptions } from './history-read';
import { raiseBusinessError } from './business-errors';
import { FragmentError } from './errors';
import { adoptMode, echoFlowState, newFlowStates, type FlowState } from './flow-state';
import type { FormFields } from './form';
import {
  htmlToText,
  pageLoggedIn,
  pageWalletLoggedIn,
  parseAjInit,
  parseCurPrice,
  parseImgSrc,
  parseOptionPrices,
  parseWalletInit,
  unescapeHtml,
} from './html-parsing';
import { asBoolean } from './json-values';
import { Mutex } from './mutex';
import {
  METHOD_NAME,
  orderQuantities,
  validateAccount,
  validateAmount,
  validateQuantities,
} from './request-validation';
import { parseProfile, type AccountProfile } from './profile-parsing';
import { FRAGMENT_PRODUCT_NAMES, fragmentPack, type PriceRead } from './products';
import { ApiHashCache, CookieJar } from './session';
import type { SessionLeases } from './session-lease';
import { PersistedCookies, type RedisCookieStore } from './cookie-store';
import { parseInitAnswer, parseTransaction } from './transaction-parsing';
import {
  DEFAULT_RETRY_POLICY,
  DEFAULT_USER_AGENT,
  Transport,
  silentLogger,
  type FragmentLogger,
  type RetryPolicy,
} from './transport';
import type {
  FragmentPaymentMethod,
  FragmentProduct,
  FragmentTransaction,
  OrderState,
  PriceQuote,
  RecipientInfo,
  TonConnectAccount,
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

const PROFILE_PAGE = '/my/profile';

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
  private readonly api: ApiSession;
  /** Held by every call that reads or moves the page's flow state. */
  private readonly mutex = new Mutex();
  /** Searches, one at a time per session, beside the flow. */
  private readonly searchLane = new Mutex();
  private readonly logger: FragmentLogger;
  private readonly priceChangedRetries: number;
  private readonly device: TonConnectDevice;
  private readonly flows: Record<FragmentProduct, FlowState> = newFlowStates();
  /**
   * Set while a call or flow holds the session's lease (`leases`): checked before each request
   * that moves the page's flow state, so a holder whose lease expired sends nothing more.
   */
  private flowGuard: (() => Promise<void>) | undefined;
  private readonly leases: SessionLeases | undefined;
  private readonly configuredSessionId: string;
  private readonly configuredAccountId: string;

  constructor(options: FragmentClientOptions) {
    if (!options.baseUrl) throw new TypeError('baseUrl is required');
    this.jar = new CookieJar(options.cookies ?? '');
    this.configuredSessionId = shortId(this.jar.get('stel_ssid') ?? this.jar.cookieHeader());
    const token = this.jar.get('stel_token');
    this.configuredAccountId = token !== undefined ? shortId(`account:${token}`) : this.configuredSessionId;
    this.logger = { ...silentLogger, ...options.logger };
    const retryPolicy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.priceChangedRetries = options.priceChangedRetries ?? 3;
    this.device = options.device ?? DEFAULT_DEVICE;
    this.leases = options.leases;
    const transport = new Transport({
      baseUrl: options.baseUrl,
      jar: this.jar,
      userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
      timeoutMs: options.timeoutMs ?? 10_000,
      minIntervalMs: options.minIntervalMs ?? 0,
      logger: this.logger,
      ...(options.proxyUrl ? { proxyUrl: options.proxyUrl } : {}),
    });
    const hash = new ApiHashCache(options.hashTtlMs ?? 120_000);
    const persisted = options.cookieStore
      ? new PersistedCookies(this.jar, options.cookieStore, options.cookies ?? '', (message) =>
          this.logger.warn(message),
        )
      : undefined;
    this.api = new ApiSession(transport, hash, this.flows, retryPolicy, this.logger, token !== undefined, persisted);
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

  // ---------------------------------------------------------------- public API

  /** `search…Recipient`: @username (or `t.me/…`) → the recipient token. */
  searchRecipient(product: FragmentProduct, username: string, order: number | Quantities): Promise<RecipientInfo> {
    const routes = fragmentPack(product);
    const quantities = orderQuantities(product, order);
    // A search that first opens the page's state (`update…State {mode: "new"}`, the top-up) moves
    // the session's flow state: it holds the flow mutex and the session's lease like any flow
    // call, so it never lands inside another replica's flow (docs/fragment-protocol.md §20.1).
    // Other searches read no flow state and take their own lane beside the flow.
    const run = <T>(task: () => Promise<T>): Promise<T> =>
      routes.newStateBeforeSearch ? this.locked(task) : this.searchLane.run(task);
    return run(async () => {
      const query = username.trim().replace(/^@/, '');
      if (query === '') throw new TypeError('username is required');
      const fields = routes.searchSendsQuantities ? { query, ...routes.orderFields(quantities) } : { query };
      if (routes.newStateBeforeSearch)
        raiseBusinessError(
          await this.api.read(product, routes.updateState, { mode: 'new' }, this.flowGuard),
          routes.updateState,
        );
      const json = await this.api.read(product, routes.search, fields);
      raiseBusinessError(json, routes.search);
      const found = json.found;
      const recipient = found && typeof found === 'object' ? (found as Record<string, unknown>).recipient : undefined;
      if (typeof recipient !== 'string' || recipient === '') {
        throw new FragmentError('RECIPIENT_NOT_FOUND', `Fragment ${routes.search}: no recipient for this username`, {
          method: routes.search,
        });
      }
      const details = found as Record<string, unknown>;
      const photoUrl = typeof details.photo === 'string' ? parseImgSrc(details.photo) : undefined;
      return {
        recipient,
        name: typeof details.name === 'string' ? unescapeHtml(details.name) : '',
        ...(photoUrl !== undefined ? { photoUrl } : {}),
      };
    });
  }

  /** `update…State` echoing `mode`/`lv`/`dh` (step 2; also the completion poll). */
  syncState(product: FragmentProduct): Promise<OrderState> {
    return this.locked(() => this.updateState(product));
  }

  /**
   * A product's `update_prices` read (its pack's method `{quantity}` → `cur_price`): the
   * current price of `quantity` (binding only at init).
   */
  quoteQuantity(product: FragmentProduct, quantity: number): Promise<PriceQuote> {
    return this.locked(async () => {
      validateAmount(product, quantity);
      const prices = updatePricesRead(product);
      const json = await this.updatePrices(product, orderQuantities(product, quantity));
      const html = typeof json.cur_price === 'string' ? json.cur_price : undefined;
      const price = html !== undefined ? parseCurPrice(html) : undefined;
      if (!price)
        throw new FragmentError('UNEXPECTED_RESPONSE', `Fragment ${prices.method}: no readable cur_price`, {
          method: prices.method,
        });
      return { gramNano: parseAmountToNano(price.ton, GRAM_DECIMALS), usd: price.usd };
    });
  }

  /**
   * A product's `page_options` prices (its page's option radios, §9), one per
   * option its domain pack sells; an option without a readable price is a format error.
   */
  optionPrices(product: FragmentProduct): Promise<Record<number, PriceQuote>> {
    return this.locked(async () => {
      const pack = fragmentPack(product);
      if (pack.prices.kind !== 'page_options') throw new TypeError(`${product} is not priced by page options`);
      const html = await this.api.loadPage(product);
      const options = parseOptionPrices(html, pack.prices.optionField);
      const result: Record<number, PriceQuote> = {};
      for (const value of amountChoices(product)) {
        const price = options.get(value);
        if (!price)
          throw new FragmentError(
            'UNEXPECTED_RESPONSE',
            `Fragment ${pack.page}: no price for ${pack.prices.optionField} ${value}`,
            { method: `GET ${pack.page}` },
          );
        result[value] = { gramNano: parseAmountToNano(price.ton, GRAM_DECIMALS), usd: price.usd };
      }
      return result;
    });
  }

  /**
   * A product's `update_options` prices: its method answers, for `quantities`, the price of every
   * option in `options_html` (its pack's method and option field).
   */
  quantityOptionPrices(product: FragmentProduct, quantities: Quantities): Promise<Record<number, PriceQuote>> {
    return this.locked(async () => {
      const prices = fragmentPack(product).prices;
      if (prices.kind !== 'update_options') throw new TypeError(`${product} is not priced by an update_options call`);
      const flow = this.flows[product];
      const json = await this.api.read(
        product,
        prices.method,
        { ...prices.fields(quantities), dh: flow.dh },
        this.flowGuard,
      );
      raiseBusinessError(json, prices.method);
      echoFlowState(flow, json);
      const html = typeof json.options_html === 'string' ? json.options_html : '';
      const result: Record<number, PriceQuote> = {};
      for (const [option, price] of parseOptionPrices(html, prices.optionField))
        result[option] = { gramNano: parseAmountToNano(price.ton, GRAM_DECIMALS), usd: price.usd };
      if (Object.keys(result).length === 0)
        throw new FragmentError('UNEXPECTED_RESPONSE', `Fragment ${prices.method}: no readable options_html`, {
          method: prices.method,
        });
      return result;
    });
  }

  /** USD per TON from the `ajInit` state of the page that carries it (`carriesTonRate`), as the decimal string Fragment wrote. */
  tonRate(): Promise<string> {
    return this.locked(async () => {
      const product = tonRateProduct();
      const html = await this.api.loadPage(product);
      const rate = parseAjInit(html).tonRate;
      const page = fragmentPack(product).page;
      if (rate === undefined)
        throw new FragmentError('UNEXPECTED_RESPONSE', `Fragment ${page}: no tonRate in ajInit state`, {
          method: `GET ${page}`,
        });
      return rate;
    });
  }

  /**
   * `init…Request` after syncing state (and the price read, for a pack whose price read is `beforeInit`). On "Price was changed"
   * re-syncs and retries (≤ priceChangedRetries). Never retried on a lost answer: a timeout
   * surfaces as UPSTREAM_UNAVAILABLE with `timedOut`/`outcomeUnknown` (an order may exist).
   */
  initRequest(args: {
    product: FragmentProduct;
    recipient: string;
    /** A one-quantity product's amount, or the order line's quantities by name. */
    amount: number | Quantities;
    paymentMethod: FragmentPaymentMethod;
  }): Promise<{ reqId: string; amount: string }> {
    return this.locked(async () => {
      const { product, recipient, paymentMethod } = args;
      const quantities = orderQuantities(product, args.amount);
      validateQuantities(product, quantities);
      const amount = lineAmount({ product, quantities });
      if (paymentMethod !== 'ton' && paymentMethod !== 'usdt_ton')
        throw new TypeError('paymentMethod must be ton or usdt_ton');
      if (!recipient) throw new TypeError('recipient is required');
      const routes = fragmentPack(product);
      // A product whose init names no payment method is paid in GRAM alone (the top-up).
      if (!routes.initSendsPaymentMethod && paymentMethod !== 'ton')
        throw new FragmentError('PAYMENT_METHOD_UNAVAILABLE', `Fragment ${routes.init}: paid in GRAM only`, {
          method: routes.init,
        });
      const flow = this.flows[product];
      flow.recipient = recipient;
      flow.quantities = quantities;
      for (let attempt = 0; ; attempt++) {
        // Every flow starts anew (docs/fragment-protocol.md §20.1): `mode: "new"`, never the
        // `done` of the session's previous order, and always synced, since another replica may
        // have moved the page's state since this process last saw it.
        flow.mode = 'new';
        await this.updateState(product);
        const prices = routes.prices;
        if (prices.kind === 'update_prices' && prices.beforeInit) await this.updatePrices(product, quantities);
        const json = await this.api.call(
          product,
          routes.init,
          {
            recipient,
            ...routes.orderFields(quantities),
            ...(routes.initSendsPaymentMethod ? { payment_method: paymentMethod } : {}),
          },
          'write',
          this.flowGuard,
        );
        try {
          raiseBusinessError(json, routes.init);
        } catch (error) {
          if (error instanceof FragmentError && error.kind === 'PRICE_CHANGED' && attempt < this.priceChangedRetries) {
            this.logger.info(
              `fragment ${routes.init}: price changed, re-syncing (${attempt + 1}/${this.priceChangedRetries})`,
            );
            continue;
          }
          throw error;
        }
        const answer = parseInitAnswer(json, routes.init);
        const faceValue = parseUnits(String(amount), GRAM_DECIMALS);
        if (routes.prices.kind === 'face_value' && parseAmountToNano(answer.amount, GRAM_DECIMALS) !== faceValue)
          throw new FragmentError(
            'UNEXPECTED_RESPONSE',
            `Fragment ${routes.init}: invoice of ${answer.amount} GRAM for an order priced at its face value, ${amount} GRAM`,
            { method: routes.init },
          );
        return answer;
      }
    });
  }

  /**
   * `get…Link` with `transaction=1`: the TonConnect request to sign, and how to confirm it. It
   * names its order (`id`) and moves only that order (to awaiting payment, §14), not the page's
   * flow state, so like `confirm` it does not wait for the flow mutex: the session inits the next
   * order meanwhile.
   */
  async getTransaction(args: {
    product: FragmentProduct;
    reqId: string;
    account: TonConnectAccount;
    device?: TonConnectDevice;
    showSender?: boolean;
  }): Promise<FragmentTransaction> {
    const { product, reqId, account } = args;
    validateAccount(account);
    if (!reqId) throw new TypeError('reqId is required');
    const method = fragmentPack(product).link;
    const json = await this.api.read(product, method, {
      id: reqId,
      show_sender: args.showSender ?? false,
      transaction: true,
      account: { ...account },
      device: { ...(args.device ?? this.device) },
    });
    raiseBusinessError(json, method);
    if (asBoolean(json.evm)) {
      throw new FragmentError('PAYMENT_METHOD_UNAVAILABLE', `Fragment ${method}: order is for an EVM payment method`, {
        method,
      });
    }
    return parseTransaction(json, method);
  }

  /**
   * POSTs `confirm_method` with its params, the signed external-in message BOC, account and device
   * (§8.1). Not retried on a lost answer (the error says `outcomeUnknown`); resolves on `ok: true`.
   * It names its order (`confirm_params`) and leaves the page's flow state alone, so it does not
   * wait for the flow mutex: confirms of a batch go out while the next order is being created.
   */
  async confirm(args: {
    /** Absent when Fragment's link answer named none: then there is nothing to confirm. */
    confirmMethod?: string;
    confirmParams: Record<string, string>;
    boc: string;
    account: TonConnectAccount;
    device?: TonConnectDevice;
    product?: FragmentProduct;
  }): Promise<'confirmed' | 'not_requested'> {
    const { confirmMethod, confirmParams, boc, account } = args;
    if (confirmMethod === undefined) return 'not_requested';
    if (!METHOD_NAME.test(confirmMethod)) throw new TypeError('confirmMethod is not a Fragment method name');
    validateAccount(account);
    if (!boc) throw new TypeError('boc is required');
    const reserved = new Set(['method', 'boc', 'account', 'device']);
    const params: FormFields = {};
    for (const [name, value] of Object.entries(confirmParams)) {
      if (reserved.has(name)) throw new TypeError(`confirmParams may not set ${name}`);
      params[name] = String(value);
    }
    const json = await this.api.call(
      args.product ?? this.api.lastProduct,
      confirmMethod,
      { ...params, boc, account: { ...account }, device: { ...(args.device ?? this.device) } },
      'write',
    );
    raiseBusinessError(json, confirmMethod);
    if (json.ok !== true) {
      throw new FragmentError('UNEXPECTED_RESPONSE', `Fragment ${confirmMethod}: answer has neither ok nor error`, {
        method: confirmMethod,
      });
    }
    return 'confirmed';
  }

  /**
   * The account's delivered orders of `product`, newest first, from its history page (§5.3,
   * §8.3): unlike `done`, which is the session's latest order only, each row names its own order,
   * and failed payments never appear. A page read outside the flow mutex.
   */
  deliveryHistory(product: FragmentProduct, options: HistoryReadOptions = {}): Promise<HistoryRead> {
    return readHistory(this.api, product, options);
  }

  /**
   * A read-only look at this login, as an operator's check needs it: the product page loads, its
   * API hash, the Telegram login (`unAuth`: logged-out pages carry a hash too), the TON wallet's
   * login (`Wallet.init` `logged_in`) and the connected wallet (raw address) when it names one.
   */
  async sessionStatus(): Promise<{
    apiHash: boolean;
    loggedIn: boolean | undefined;
    walletLoggedIn: boolean | undefined;
    wallet: string | undefined;
  }> {
    const path = fragmentPack(tonRateProduct()).page;
    const page = await this.api.getPage(path);
    const info = assertPageUsable(`GET ${path}`, page, false);
    return {
      apiHash: info.apiHash !== '',
      loggedIn: pageLoggedIn(page.body),
      walletLoggedIn: pageWalletLoggedIn(page.body),
      wallet: parseWalletInit(page.body)?.address,
    };
  }

  /** A page of the site as served (read-retried), for checks that read its markup themselves. */
  async pageHtml(path: string): Promise<string> {
    return (await this.api.getPage(path)).body;
  }

  /**
   * `/my/profile`, read only (docs/fragment-protocol.md §19.3): identity verified, the linked
   * wallet and whether it is verified. A page read outside the flow mutex; a logged-out session
   * is redirected (SESSION_INVALID).
   */
  async profile(): Promise<AccountProfile> {
    const page = await this.api.getPage(PROFILE_PAGE);
    return parseProfile(page.body);
  }

  /**
   * `pollOrderState` only when no purchase flow holds or waits for this session; undefined
   * otherwise. For callers to whom the status screen is a fallback not worth queueing behind
   * every order being created.
   */
  async pollOrderStateIfIdle(
    product: FragmentProduct,
  ): Promise<{ mode: string; done: boolean; needUpdate: boolean; statusText: string } | undefined> {
    if (this.mutex.busy()) return undefined;
    const polled = await this.lockedRun(() => this.pollState(product), false);
    return polled === NOT_IDLE ? undefined : polled;
  }

  /**
   * The session's flow state. `done` is about the session's latest order, not a given one:
   * `statusText` is the visible text of the page's status screen (what was sent to whom, each
   * pack's `statusTextAmount`), which callers match against their own order before trusting `done`.
   */
  pollOrderState(
    product: FragmentProduct,
  ): Promise<{ mode: string; done: boolean; needUpdate: boolean; statusText: string }> {
    return this.locked(() => this.pollState(product));
  }

  // ---------------------------------------------------------------- internals

  private async pollState(
    product: FragmentProduct,
  ): Promise<{ mode: string; done: boolean; needUpdate: boolean; statusText: string }> {
    const state = await this.updateState(product);
    return {
      mode: state.mode,
      needUpdate: state.needUpdate,
      done: state.mode === 'done' && !state.needUpdate,
      statusText: state.statusText,
    };
  }

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
      this.flowGuard = () => held.confirm();
      try {
        return await task();
      } finally {
        this.flowGuard = undefined;
        // A release that fails leaves the lease to expire: the session is free after its TTL.
        await held.release().catch((error: unknown) => {
          this.logger.warn(`fragment session lease: release failed (${String(error)}); it expires on its own`);
        });
      }
    });
  }

  private async updateState(product: FragmentProduct): Promise<OrderState> {
    const method = fragmentPack(product).updateState;
    const flow = this.flows[product];
    const json = await this.api.read(product, method, { mode: flow.mode, lv: flow.lv, dh: flow.dh }, this.flowGuard);
    raiseBusinessError(json, method);
    // Fields absent from an answer are unchanged (the page keeps its state).
    adoptMode(flow, json.mode);
    echoFlowState(flow, json);
    return {
      mode: flow.mode,
      needUpdate: asBoolean(json.need_update),
      statusText: typeof json.html === 'string' ? htmlToText(json.html) : '',
    };
  }

  private async updatePrices(product: FragmentProduct, quantities: Quantities): Promise<Record<string, unknown>> {
    const prices = updatePricesRead(product);
    const flow = this.flows[product];
    const json = await this.api.read(
      product,
      prices.method,
      { ...prices.fields(quantities), dh: flow.dh },
      this.flowGuard,
    );
    raiseBusinessError(json, prices.method);
    echoFlowState(flow, json);
    return json;
  }
}

/** A product's `update_prices` read; throws for a product priced otherwise. */
function updatePricesRead(product: FragmentProduct): Extract<PriceRead, { kind: 'update_prices' }> {
  const prices = fragmentPack(product).prices;
  if (prices.kind !== 'update_prices') throw new TypeError(`${product} is not priced by an update_prices call`);
  return prices;
}

/** The options a product's domain pack sells for its amount (its `choices` rule). */
function amountChoices(product: FragmentProduct): readonly number[] {
  const description = productDescription(product);
  const rule = description.quantities.find((field) => field.quantity === description.amountQuantity)?.rule;
  if (rule?.kind !== 'choices') throw new TypeError(`${product} has no fixed choices`);
  return rule.values;
}

/** The product whose page carries the TON rate (and serves as the session's status page). */
function tonRateProduct(): FragmentProduct {
  const product = FRAGMENT_PRODUCT_NAMES.find((name) => fragmentPack(name).carriesTonRate);
  if (!product) throw new Error('no Fragment product page carries the TON rate');
  return product;
}
