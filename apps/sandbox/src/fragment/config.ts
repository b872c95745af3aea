import type { RecipientEntry } from './directory';
import {
  PRODUCT_DRIFTS,
  productConfigDefaults,
  productDecimals,
  productFaultDefaults,
  validateProductConfig,
  type ProductConfig,
  type ProductDrift,
  type ProductFaults,
} from './products/product-config';
import type { ReceiverName } from './products/pack';

/** Inclusive millisecond range; a value is drawn uniformly from it. */
export interface MsRange {
  minMs: number;
  maxMs: number;
}

/** Faults for one API method (key = method name), all API methods (`*`) or page GETs (`page`). */
export interface MethodFaults {
  /** Replaces the default latency for this method. */
  latency?: MsRange;
  /** Probability (0..1) of a business error `{"error": errorText}` with HTTP 200. */
  errorRate?: number;
  errorText?: string;
  /** Probability of HTTP 429 with `Retry-After: retryAfterSeconds`. */
  rateLimitRate?: number;
  retryAfterSeconds?: number;
  /** Probability of an HTTP 5xx (`serverErrorStatus`, default 502). */
  serverErrorRate?: number;
  serverErrorStatus?: number;
  /** Probability that the request hangs (no answer) for `config.hangMs`, then the socket is destroyed. */
  timeoutRate?: number;
  /** Probability of a Cloudflare-style 403 "Just a moment..." HTML page. */
  cloudflareRate?: number;
  /** Probability of Cloudflare's 403 block page (error 1020, "Sorry, you have been blocked"). */
  cloudflareBlockRate?: number;
  /** When set, these faults apply only to the next `count` calls of this key (then the entry is spent). */
  count?: number;
}

export type ConfirmFaultMode =
  /** normal: verify the BOC, record it, answer ok or error */
  | 'ok'
  /** answer `ok: true` but do not record the confirm */
  | 'lost'
  /** hang (client times out) without recording the confirm */
  | 'timeout'
  /** record the confirm, then hang (client times out although the confirm counted) */
  | 'timeout_recorded'
  /** answer `{"error": confirmErrorText}` without recording */
  | 'error';

/**
 * A change of the product pages that `npm run doctor -- --contract` must notice (docs/fragment-protocol.md
 * §19.5): the API hash no longer where clients read it, renamed payment-method values, and each
 * product's own (its limits or options, products/product-config.ts).
 */
export type ContractDrift = 'apiHash' | 'paymentMethods' | ProductDrift;
export const CONTRACT_DRIFTS: readonly ContractDrift[] = ['apiHash', ...PRODUCT_DRIFTS, 'paymentMethods'];

export type DoneFaultMode = 'normal' | 'slow' | 'never';

/**
 * Whom `get…Link` names as `transaction.from` (docs/fragment-protocol.md §17).
 * `linked`: the wallet linked to the Fragment account (the session's connected wallet), whatever
 * `account` was sent; a USDT message then targets that wallet's jetton wallet, and the order is
 * paid by a payment carrying its `Ref#` from any wallet. `echo`: the `account` sent (the old
 * behaviour; only that wallet's external confirms the order).
 */
export type TransactionFromMode = 'linked' | 'echo';

/** Besides each product's own faults (products/product-config.ts). */
export interface FragmentFaults extends ProductFaults {
  /** Per-method transport/business faults. Keys: method name, `*` (every API method), `page` (page GETs). */
  methods: Record<string, MethodFaults>;
  /**
   * Cloudflare challenges this client on every page GET and API call (403 "Just a moment…",
   * `cf-mitigated: challenge`), as a datacenter IP often sees fragment.com (docs/fragment-protocol.md §12).
   */
  cloudflareChallenge: boolean;
  /** Cloudflare blocks this client on every page GET and API call (403, error 1020, `server: cloudflare`, `cf-ray`). */
  cloudflareBlock: boolean;
  /**
   * How pages show the logins. `fragment` (default), as Fragment's script reads them: `state.unAuth`
   * is the Telegram login (false when logged in), `Wallet.init.logged_in` the TON wallet's, so a
   * login without `stel_ton_token` shows `unAuth: false, logged_in: false`. `legacy`: the old
   * simulator's reading, `logged_in` for the Telegram login and `unAuth` only when logged out
   * (docs/fragment-protocol.md §19.2).
   */
  loginMarkup: 'fragment' | 'legacy';
  /**
   * `/my/profile` badges: `verified` (default), "Identity Verified" and, with a linked wallet,
   * "Wallet Verified"; `unverified`, a "Verify your identity" link and no wallet badge, as an
   * account before KYC (docs/fragment-protocol.md §19.3).
   */
  profileBadges: 'verified' | 'unverified';
  /** Product pages drift from what Fragment shows today (none by default). */
  contractDrift: ContractDrift[];
  /** Every cookie session is dead: logged-out pages (hash still present, `unAuth`), every API call "Access denied". */
  sessionExpired: boolean;
  /** Text for a wrong/stale/foreign hash. */
  badHashText: 'Access denied' | 'Bad request';
  /** Reject the next N `init…Request` calls with "Price was changed. Please try again." (decrements). */
  priceChangedNextInits: number;
  /** `get…Link` answers `need_verify: true` + popup. */
  needVerify: boolean;
  /** `init…Request` answers `need_ton: true` even with a wallet cookie. */
  needTon: boolean;
  confirm: ConfirmFaultMode;
  confirmErrorText: string;
  /** `slow`: done after `slowDoneDelayMs`; `never`: stays processing forever. */
  done: DoneFaultMode;
  /** `get…Link` returns a receiving address that is not on the allow-list. */
  unknownReceiver: boolean;
  /**
   * `changed`: the history pages list orders in a markup no parser knows (cards instead of table
   * cells), as if Fragment redesigned them: clients must report a format error, not "no delivery".
   */
  historyMarkup: 'table' | 'changed';
  /**
   * How older history rows load. `body_foot` (default): as Fragment's page script loads them,
   * `get…History {type, offset_id}` → `{body, foot}`. `legacy`: the shape no public source shows
   * (a table owner's own `get…History`, `{html, next_offset}`), which clients must report as a
   * format error, never read as the history's end (docs/fragment-protocol.md §17.2).
   */
  historyLoadMore: 'body_foot' | 'legacy';
  /**
   * `datetime` (default): date cells carry `time[datetime]`. `text`: as a stored mock of the history
   * page shows them, only the text, written in UTC (`<time class="short">Jan 12 at 14:05</time>`,
   * `Dec 31, 2025 at 23:59` for another year), docs/fragment-protocol.md §17.2.
   */
  historyDates: 'datetime' | 'text';
  /** `get…Link` answers without `confirm_method`/`confirm_params` (Fragment's script then calls no confirm). */
  omitConfirmMethod: boolean;
  /**
   * `searchAdsTopupRecipient` answers `Bad request` until the session called `updateAdsTopupState
   * {mode: "new"}`, and again after each top-up init (what public clients guard against by opening
   * the state first).
   */
  topupSearchNeedsState: boolean;
  /** History rows end with the order's `Ref#` (no public source shows it; the delivery check then proves an order by it alone). */
  historyShowsRef: boolean;
  /** Whom `get…Link` names as `transaction.from`, for every session without an entry in `transactionFromBySession`. */
  transactionFrom: TransactionFromMode;
  /** The mode per cookie session (`stel_ssid` → mode): a run can give some sessions each mode. */
  transactionFromBySession: Record<string, TransactionFromMode>;
  /**
   * One flow at a time per page session (docs/fragment-protocol.md §20.1): an `init…Request` is
   * accepted only when the session's last state call before it was a flow start of the same
   * product (`update…State` with `mode: "new"`; its `update…Prices` may come between). Another
   * flow's start or status poll in between (flows interleaved), or no fresh start (a stale `done`
   * echoed), answers "Price was changed. Please try again." and creates no order. Counted in
   * `stats().strictFlowRejections`.
   */
  strictFlow: boolean;
  /**
   * Logins killed (by `stel_ssid`): their pages show a logged-out login and their API calls answer
   * "Access denied", as when Fragment ends a login; removing one revives it
   * (docs/fragment-protocol.md §20.3). `PUT /admin/fragment/faults {"deadSessions": [...]}`.
   */
  deadSessions: string[];
  /**
   * Cookies rotate (docs/fragment-protocol.md §20.2): every page GET of a live login with a wallet
   * answers `Set-Cookie: stel_ton_token=<fresh>`; the token it sent stays accepted for one more
   * rotation, older ones of that login are refused (the login then shows as dead), as a client
   * that keeps its first cookies finds once Fragment has renewed them twice.
   */
  rotateCookies: boolean;
}

/** Besides each product's own settings (products/product-config.ts: prices, limits). */
export interface FragmentSimulatorConfig extends ProductConfig {
  /** `ajInit` version. */
  pageVersion: number;
  /** USD per TON, decimal string (≤ 6 decimals). */
  tonRate: string;
  /** Slow random drift of tonRate: every `intervalMs` a step of up to ±`maxStepPpm` parts per million. */
  drift: { enabled: boolean; intervalMs: number; maxStepPpm: number };
  /** Seconds from `get…Link` to `validUntil` (chain time). */
  validitySeconds: number;
  /** TON attached to the USDT jetton transfer message, decimal string. */
  usdtMessageTon: string;
  /** forward_ton_amount of the jetton transfer, nanoTON decimal string. */
  jettonForwardNano: string;
  /** Default latency of every API call and page GET. */
  latency: MsRange;
  /** From "paid and confirmed" to `mode=processing`. */
  processingDelay: MsRange;
  /** From `processing` to `done`. */
  doneDelay: MsRange;
  /** Replaces doneDelay when faults.done = 'slow'. */
  slowDoneDelayMs: number;
  /** How long a "timeout" fault holds the request before destroying the socket. */
  hangMs: number;
  /** Session hash lifetime; after it the page shows a new hash and the old one is rejected. 0 = never rotates. */
  hashRotationMs: number;
  /** Delivery needs a matching `confirmReq` in addition to the matching payment. */
  requireConfirm: boolean;
  /** `confirmReq` rejects a bare transfer body (only an external-in message is accepted). */
  strictConfirm: boolean;
  /** Accepted `stel_token` values (logIn adds more). Default: the demo token derived from the seed. */
  acceptedStelTokens: string[];
  /** Accepted `stel_ton_token` values → connected wallet (raw `0:<hex>` or friendly). Default: demo token → demoWallet. */
  acceptedTonTokens: Record<string, string>;
  /**
   * Wallet shown in `Wallet.init` for the demo `stel_ton_token` (raw or friendly address): the
   * wallet linked to the demo Fragment account. Default: the simulator's own linked wallet
   * (seed-derived, none of the demo wallets; the sandbox funds and deploys it).
   */
  demoWallet?: string;
  /** Enable test `logIn` (any well-formed `auth` yields a `stel_token`). */
  allowTestLogIn: boolean;
  /** Overrides of the seed-derived receiving addresses (friendly or raw). */
  receivers?: Partial<Record<ReceiverName, string>>;
  /** Rows on the first history page and in each "load more" answer. */
  historyPageRows: number;
  /** Recipient directory; default: the demo set. */
  directory?: RecipientEntry[];
  faults: FragmentFaults;
}

export function defaultFaults(): FragmentFaults {
  return {
    methods: {},
    cloudflareChallenge: false,
    cloudflareBlock: false,
    loginMarkup: 'fragment',
    profileBadges: 'verified',
    contractDrift: [],
    sessionExpired: false,
    badHashText: 'Access denied',
    priceChangedNextInits: 0,
    needVerify: false,
    needTon: false,
    ...productFaultDefaults(),
    confirm: 'ok',
    confirmErrorText: 'Transaction not found. Please try again.',
    done: 'normal',
    unknownReceiver: false,
    historyMarkup: 'table',
    historyLoadMore: 'body_foot',
    historyDates: 'datetime',
    omitConfirmMethod: false,
    topupSearchNeedsState: false,
    historyShowsRef: false,
    transactionFrom: 'linked',
    transactionFromBySession: {},
    strictFlow: false,
    deadSessions: [],
    rotateCookies: false,
  };
}

/** Defaults from the docs/fragment-protocol.md §14.2. Tests pass tiny latencies and delays. */
export function defaultConfig(): FragmentSimulatorConfig {
  return {
    pageVersion: 1072,
    tonRate: '1.70',
    drift: { enabled: false, intervalMs: 60_000, maxStepPpm: 3_000 },
    ...productConfigDefaults(),
    validitySeconds: 300,
    usdtMessageTon: '0.05',
    jettonForwardNano: '1',
    latency: { minMs: 150, maxMs: 350 },
    processingDelay: { minMs: 2_000, maxMs: 5_000 },
    doneDelay: { minMs: 10_000, maxMs: 60_000 },
    slowDoneDelayMs: 300_000,
    hangMs: 120_000,
    hashRotationMs: 30 * 60_000,
    requireConfirm: true,
    strictConfirm: true,
    acceptedStelTokens: [],
    acceptedTonTokens: {},
    allowTestLogIn: true,
    historyPageRows: 20,
    faults: defaultFaults(),
  };
}

/**
 * Fragment's delays cut to milliseconds, for the tests and benches that wait for deliveries: the
 * defaults are Fragment's own (a delivery 10 to 60 s after payment), and a suite that waits for
 * each of its purchases spent most of its time there. As `SANDBOX_FRAGMENT_CONFIG` for a sandbox
 * process: `JSON.stringify(FAST_FRAGMENT_TIMINGS)`.
 */
export const FAST_FRAGMENT_TIMINGS = {
  latency: { minMs: 0, maxMs: 5 },
  processingDelay: { minMs: 30, maxMs: 60 },
  doneDelay: { minMs: 60, maxMs: 120 },
} as const satisfies Partial<FragmentSimulatorConfig>;

type Patch<T> = {
  [K in keyof T]?: T[K] extends Array<unknown> ? T[K] : T[K] extends object ? Patch<T[K]> | undefined : T[K];
};
export type FragmentConfigPatch = Patch<FragmentSimulatorConfig>;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Merges a (partial, possibly nested) patch into a config object in place.
 * Objects merge key by key; arrays and scalars replace; `null` deletes a key
 * (e.g. `{faults: {methods: {confirmReq: null}}}` clears that method's faults).
 */
export function mergeInto(target: Record<string, unknown>, patch: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) {
      delete target[key];
    } else if (isPlainObject(value) && isPlainObject(target[key])) {
      mergeInto(target[key], value);
    } else {
      target[key] = isPlainObject(value)
        ? structuredClone(value)
        : Array.isArray(value)
          ? [...(value as unknown[])]
          : value;
    }
  }
}

/** Checks values that would otherwise fail later (bad decimals, ranges). Throws with a readable message. */
export function validateConfig(config: FragmentSimulatorConfig): void {
  const decimal = /^\d+(\.\d+)?$/;
  for (const [name, value] of [
    ['tonRate', config.tonRate],
    ['usdtMessageTon', config.usdtMessageTon],
    ...productDecimals(config),
  ]) {
    if (typeof value !== 'string' || !decimal.test(value)) throw new Error(`${name} must be a decimal string`);
  }
  if (!/^\d+$/.test(config.jettonForwardNano)) throw new Error('jettonForwardNano must be an integer string');
  if (!/^\d+(\.\d{1,6})?$/.test(config.tonRate) || /^0+(\.0*)?$/.test(config.tonRate))
    throw new Error('tonRate must be positive with ≤ 6 decimals');
  for (const [name, range] of [
    ['latency', config.latency],
    ['processingDelay', config.processingDelay],
    ['doneDelay', config.doneDelay],
  ] as const) {
    if (!(range.minMs >= 0 && range.maxMs >= range.minMs)) throw new Error(`${name} must satisfy 0 <= minMs <= maxMs`);
  }
  validateProductConfig(config);
  if (!(config.validitySeconds > 0)) throw new Error('validitySeconds must be positive');
  for (const mode of [config.faults.transactionFrom, ...Object.values(config.faults.transactionFromBySession ?? {})])
    if (mode !== 'linked' && mode !== 'echo') throw new Error('transactionFrom must be "linked" or "echo"');
  if (!(Number.isSafeInteger(config.historyPageRows) && config.historyPageRows >= 1))
    throw new Error('historyPageRows must be a positive integer');
  if (!['body_foot', 'legacy'].includes(config.faults.historyLoadMore))
    throw new Error('faults.historyLoadMore must be body_foot or legacy');
  for (const drift of config.faults.contractDrift)
    if (!CONTRACT_DRIFTS.includes(drift)) throw new Error(`faults.contractDrift: unknown drift ${String(drift)}`);
  if (!['verified', 'unverified'].includes(config.faults.profileBadges))
    throw new Error('faults.profileBadges must be verified or unverified');
  if (!['fragment', 'legacy'].includes(config.faults.loginMarkup))
    throw new Error('faults.loginMarkup must be fragment or legacy');
  if (!['datetime', 'text'].includes(config.faults.historyDates))
    throw new Error('faults.historyDates must be datetime or text');
}
