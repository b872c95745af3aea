import { checkBaseURL, pathSegment, seedTravelsInClear } from './core/base-url.js';
import { inBrowser } from './core/environment.js';
import { BrowserSecretError, InsecureTransportError } from './core/errors.js';
import { SDK_VERSION, Transport, type Operation } from './core/http.js';
import { poll } from './polling.js';
import { isTerminal } from './status.js';
import type {
  AvailabilityCheckRequest,
  AvailabilityResult,
  Checkout,
  CheckoutAccepted,
  CreateCheckoutRequest,
  CreatePurchaseRequest,
  Outcome,
  PriceList,
  PriceQuote,
  Product,
  ProductCatalog,
  Purchase,
  PurchaseAccepted,
  Replayable,
  TonProofPayload,
  ResolvedWallet,
  ResolveWalletRequest,
  WaitOptions,
  WithQuantities,
} from './types.js';
import { requestFieldsOf, type Quantities } from './order-quantities.js';
import { withProductMethods } from './products/index.js';

export interface StarsgateOptions {
  /** Default `http://127.0.0.1:8080`. A seed travels over plain http only to this machine unless `allowInsecureHttp`. */
  baseURL?: string;
  /** Per attempt, in milliseconds. Default 30 000. */
  timeout?: number;
  /** Default 2. */
  maxRetries?: number;
  /** Default: the global `fetch` (Node 20+, browsers). */
  fetch?: typeof fetch;
  headers?: Record<string, string>;
  allowInsecureHttp?: boolean;
}

const TRANSACTION_WAIT: WaitOptions<Checkout> = { timeoutMs: 60_000, pollIntervalMs: 1_000 };
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function refuseSecretsInBrowser(method: string): void {
  if (inBrowser())
    throw new BrowserSecretError(
      `${method} sends a wallet seed and refuses to run in a browser: call it from your server. In a page, use a client-signed checkout (TON Connect) instead.`,
      { code: 'SEED_IN_BROWSER' },
    );
}

/** Only the fields the caller set: an omitted optional field is absent, never null. */
function compact<T extends object>(fields: T): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/** The gateway's calls over any product; `Starsgate` adds each product's named methods (`products/`). */
class StarsgateCore {
  readonly baseURL: string;
  private readonly transport: Transport;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly allowInsecureHttp: boolean;

  constructor(options: StarsgateOptions = {}) {
    this.baseURL = checkBaseURL(options.baseURL ?? 'http://127.0.0.1:8080');
    this.allowInsecureHttp = options.allowInsecureHttp ?? false;
    const maxRetries = options.maxRetries ?? 2;
    if (!Number.isInteger(maxRetries) || maxRetries < 0) throw new TypeError('maxRetries must be an integer >= 0');
    const fetchImpl = options.fetch ?? globalThis.fetch;
    if (typeof fetchImpl !== 'function') throw new TypeError('no fetch: pass options.fetch');
    this.sleep = sleep;
    this.transport = new Transport({
      baseURL: this.baseURL,
      timeout: options.timeout ?? 30_000,
      maxRetries,
      // Outside a browser the SDK names itself and counts retries in headers. In a page they would
      // turn every call into a CORS preflight the gateway does not allow, so none is added there.
      headers: inBrowser()
        ? { ...options.headers }
        : { 'X-Starsgate-Client': `starsgate-js/${SDK_VERSION}`, ...options.headers },
      countRetries: !inBrowser(),
      fetch: fetchImpl.bind(globalThis),
      sleep: (ms) => this.sleep(ms),
      randomFraction: Math.random,
    });
  }

  /**
   * Calls without a secret (prices, availability, status, checkouts) may use http:// inside a
   * private network; a seed may not, unless the caller allowed it. Checked before anything is sent.
   */
  private refuseSeedInClear(method: string): void {
    if (!this.allowInsecureHttp && seedTravelsInClear(this.baseURL))
      throw new InsecureTransportError(
        `Refusing to send a seed over plain http:// to ${new URL(this.baseURL).hostname} (${method}): it would travel unencrypted.`,
        {
          code: 'INSECURE_TRANSPORT',
          action:
            'Use https://, or, if the network path is private and trusted, pass allowInsecureHttp: true to the client.',
        },
      );
  }

  private call<T>(op: Operation): Promise<T> {
    return this.transport.call<T>(op);
  }

  private catalog: Promise<ProductCatalog> | undefined;

  /** The catalogue for mapping quantities to request fields: read once per client, again after a failed read. */
  private productCatalog(): Promise<ProductCatalog> {
    this.catalog ??= this.listProducts().catch((error: unknown) => {
      this.catalog = undefined;
      throw error;
    });
    return this.catalog;
  }

  /** An order given with `quantities` as the request the gateway reads (`amount`, `winners`, …). */
  private async orderFields<T extends { product: string }>(params: T | (T & { quantities?: Quantities })): Promise<T> {
    if (!('quantities' in params) || params.quantities === undefined) return params;
    const { quantities, ...order } = params;
    return { ...order, ...requestFieldsOf(await this.productCatalog(), order.product, quantities) } as unknown as T;
  }

  /** A POST that creates an order: retried only with its key, which the gateway answers as a replay. */
  private async createOrder<T>(
    path: string,
    params: WithQuantities<{ product: string; idempotency_key: string }>,
  ): Promise<T & Replayable> {
    if (!params.idempotency_key) throw new TypeError('idempotency_key is required: one key per logical order');
    const body = compact(await this.orderFields(params));
    return await this.call({ method: 'POST', path, body, replaySafe: true, reportsReplay: true });
  }

  // -- availability and prices --------------------------------------------------------------

  /**
   * Can this recipient receive this product, paid this way? A point-in-time answer, not a reservation.
   * Any product: its request fields (`amount`; a giveaway's `winners` and `months`) or its `quantities`.
   */
  async checkAvailability(params: WithQuantities<AvailabilityCheckRequest>): Promise<AvailabilityResult> {
    const body = { ...(await this.orderFields(params)) };
    // Stores nothing: safe to repeat.
    return await this.call({ method: 'POST', path: '/api/v1/availability/check', body, replaySafe: true });
  }

  getPrices(): Promise<PriceList> {
    return this.call({ method: 'GET', path: '/api/v1/prices', replaySafe: true });
  }

  /** Every product the gateway sells: its fields and their limits, payment methods, recipient kind, and the price list by product. */
  listProducts(): Promise<ProductCatalog> {
    return this.call({ method: 'GET', path: '/api/v1/products', replaySafe: true });
  }

  /** `products.list()`: `listProducts` under the namespace the Python SDK also has. */
  readonly products = { list: (): Promise<ProductCatalog> => this.listProducts() };

  /** A product's price for its `amount`, or for its quantities by name: `getQuote(product, { winners: 10, months: 3 })`. */
  async getQuote(product: Product, amount: number | Quantities): Promise<PriceQuote> {
    const quantities =
      typeof amount === 'number' ? { amount } : requestFieldsOf(await this.productCatalog(), product, amount);
    return await this.call({
      method: 'GET',
      path: '/api/v1/prices/quote',
      query: { product, ...quantities },
      replaySafe: true,
    });
  }

  // -- wallets and purchases (server side only: they carry a seed) ----------------------------

  // async: a refusal is a rejected promise, like every other failure.
  async resolveWallet(params: ResolveWalletRequest): Promise<ResolvedWallet> {
    refuseSecretsInBrowser('resolveWallet');
    this.refuseSeedInClear('resolveWallet');
    return await this.call({
      method: 'POST',
      path: '/api/v1/wallets/resolve',
      body: compact(params),
      replaySafe: true,
    });
  }

  /**
   * Any product: its request fields (`amount`; a giveaway's `winners` and `months`) or its
   * `quantities` (`{ winners: 10, months: 3 }`). 202 means accepted, not delivered: follow with
   * `wait`. Retries reuse `idempotency_key`.
   */
  async createPurchase(params: WithQuantities<CreatePurchaseRequest>): Promise<PurchaseAccepted & Replayable> {
    refuseSecretsInBrowser('createPurchase');
    this.refuseSeedInClear('createPurchase');
    return await this.createOrder('/api/v1/purchases', params);
  }

  getPurchase(purchaseId: string): Promise<Purchase> {
    return this.call({ method: 'GET', path: `/api/v1/purchases/${pathSegment(purchaseId)}`, replaySafe: true });
  }

  /**
   * Polls until a terminal status and returns the purchase with `replacementAllowed` and `advice`,
   * also for `failed` and `reconciliation_required` (never replace the latter). Throws
   * WaitTimeoutError when the timeout passes first.
   */
  wait(purchaseId: string, options: WaitOptions<Purchase> = {}): Promise<Purchase & Outcome> {
    return poll(`purchase ${purchaseId}`, () => this.getPurchase(purchaseId), this.sleep, options);
  }

  // -- client-signed checkouts (safe in a browser: no secret) ---------------------------------

  /**
   * A payload for TON Connect's `ton_proof`: ask the wallet for a proof with it when it connects
   * and pass the wallet's `proof` as `ton_proof` to createCheckout (required where the gateway
   * sets TON_PROOF_REQUIRED; with it, idempotency keys belong to the proven payer).
   */
  createTonProofPayload(): Promise<TonProofPayload> {
    return this.call({ method: 'POST', path: '/api/v1/checkouts/ton-proof-payload', replaySafe: true });
  }

  /** Any product, as `createPurchase` takes it; the buyer's wallet signs, so no secret is sent. */
  async createCheckout(params: WithQuantities<CreateCheckoutRequest>): Promise<CheckoutAccepted & Replayable> {
    return await this.createOrder('/api/v1/checkouts', params);
  }

  getCheckout(checkoutId: string): Promise<Checkout> {
    return this.call({ method: 'GET', path: `/api/v1/checkouts/${pathSegment(checkoutId)}`, replaySafe: true });
  }

  /** Polls until the TON Connect `transaction` is ready to sign, or the checkout ended (e.g. TOP_UP_REQUIRED). */
  waitForCheckoutTransaction(checkoutId: string, options: WaitOptions<Checkout> = {}): Promise<Checkout & Outcome> {
    return poll(`checkout ${checkoutId}`, () => this.getCheckout(checkoutId), this.sleep, {
      ...TRANSACTION_WAIT,
      ...options,
      done: (checkout) => checkout.transaction !== undefined || isTerminal(checkout.status),
    });
  }

  /** Hands the wallet's signed BOC to the service. The same BOC again is a harmless replay. */
  submitCheckout(checkoutId: string, boc: string): Promise<Checkout> {
    return this.call({
      method: 'POST',
      path: `/api/v1/checkouts/${pathSegment(checkoutId)}/submitted`,
      body: { boc },
      replaySafe: true,
    });
  }

  waitForCheckout(checkoutId: string, options: WaitOptions<Checkout> = {}): Promise<Checkout & Outcome> {
    return poll(`checkout ${checkoutId}`, () => this.getCheckout(checkoutId), this.sleep, options);
  }
}

/** Talks to a starsgate gateway. The same methods as the Python SDK, in camelCase. */
export class Starsgate extends withProductMethods(StarsgateCore) {}
