import { HISTORY_TYPES } from './history-types';
import { escapeHtml, phpJson } from './html';
import type { Order } from './orders';
import { formatUsd, PREMIUM_MONTHS, type PremiumMonths, type PriceBook, splitTon } from './pricing';
import type { ContractDrift } from './config';
import type { Product } from './sessions';

export type PageKind =
  'home' | 'stars' | 'premium' | 'topup' | 'starsHistory' | 'premiumHistory' | 'topupHistory' | 'profile';

/** The product each product or history page belongs to. */
export const PAGE_PRODUCTS: Partial<Record<PageKind, Product>> = {
  stars: 'stars',
  premium: 'premium',
  topup: 'gram',
  starsHistory: 'stars',
  premiumHistory: 'premium',
  topupHistory: 'gram',
};
const HISTORY_PAGES: ReadonlySet<PageKind> = new Set(['starsHistory', 'premiumHistory', 'topupHistory']);

export function isHistoryPage(kind: PageKind): boolean {
  return HISTORY_PAGES.has(kind);
}

export const PAGE_PATHS: Record<PageKind, string> = {
  home: '/',
  stars: '/stars/buy',
  premium: '/premium/gift',
  topup: '/ads/topup',
  starsHistory: '/stars/history',
  premiumHistory: '/premium/history',
  topupHistory: '/ads/history',
  profile: '/my/profile',
};
const TITLES: Record<PageKind, string> = {
  home: 'Fragment',
  stars: 'Buy Telegram Stars',
  premium: 'Gift Telegram Premium',
  topup: 'Top Up Telegram Account',
  starsHistory: 'Telegram Stars History',
  premiumHistory: 'Telegram Premium History',
  topupHistory: 'Top-up History',
  profile: 'My Profile',
};

/** Stars packages listed on /stars/buy (input[name="stars"]). */
export const STARS_PACKAGES = [
  50, 75, 100, 150, 250, 350, 500, 750, 1000, 1500, 2500, 5000, 10000, 25000, 50000, 100000, 150000, 500000, 1000000,
];

export interface PageContext {
  kind: PageKind;
  version: number;
  /** The session's API hash: logged-out pages carry it too (Fragment's do). */
  hash: string;
  /** A logged-out page (no or dead login): `unAuth` in its state, `Wallet.init` `logged_in: false`. */
  loggedOut: boolean;
  /** The login cookies are dead: the page shows the login screen instead of its content. */
  dead: boolean;
  rateText: string;
  prices: PriceBook;
  starsMin: number;
  starsMax: number;
  /** What the product pages show differently from Fragment, as if it changed them (faults.contractDrift). */
  drift: ReadonlySet<ContractDrift>;
  /**
   * Wallet.init fields; `loggedIn` is the TON wallet's login (`stel_ton_token` accepted), which
   * Fragment's script reads as `tonConnectLoggedIn` (docs/fragment-protocol.md §19.2).
   */
  wallet?: { addressRaw?: string; tonProof: string; loggedIn: boolean };
  /**
   * `fragment` (default): `state.unAuth` is the Telegram login (false when logged in) and
   * `Wallet.init.logged_in` the wallet's. `legacy`: the old simulator's markup, `unAuth` only on
   * logged-out pages and `logged_in` standing for the Telegram login.
   */
  loginMarkup: 'fragment' | 'legacy';
  /** The Telegram login (`stel_token` accepted), for the legacy markup's `logged_in`. */
  telegramLoggedIn: boolean;
  lv: number;
  dh: string;
  /** History pages: the history table (history-html.ts). */
  historyHtml?: string;
  /** The profile page: its section (profile-html.ts). */
  profileHtml?: string;
}

export interface RenderedPage {
  title: string;
  main: string;
  script: string;
  state: Record<string, unknown>;
}

/** `<div class="tm-value icon-before icon-ton">44<span class="mini-frac">.6172</span></div>` */
export function tonValueHtml(tonText: string): string {
  const { whole, frac } = splitTon(tonText);
  return `<div class="tm-value icon-before icon-ton">${whole}${frac ? `<span class="mini-frac">${frac}</span>` : ''}</div>`;
}

/** `cur_price` of `updateStarsPrices` (docs/fragment-protocol.md §5.2). */
export function curPriceHtml(tonText: string, usdMicro: bigint): string {
  return `${tonValueHtml(tonText)}<div class="tm-radio-desc">&#036;${formatUsd(usdMicro)}</div>`;
}

export function starsOptionsHtml(prices: PriceBook, starsMax: number): string {
  const rate = prices.tonRateMicro();
  return STARS_PACKAGES.filter((n) => n <= starsMax)
    .map((n) => {
      const q = prices.quote(prices.starsUsdMicro(n), rate);
      return `<label class="tm-form-radio-item"><input type="radio" class="tm-form-radio" name="stars" value="${n}"${n === 50 ? ' checked' : ''}><div class="tm-form-radio-label"><div class="tm-radio-label">${n.toLocaleString('en-US')} Stars</div>${tonValueHtml(q.tonText)}<div class="tm-radio-desc">$${formatUsd(q.usdMicro)}</div></div></label>`;
    })
    .join('');
}

function premiumDiscount(prices: PriceBook, months: PremiumMonths): number {
  // 100 - round(100 × monthly(m) / monthly(3)), integer math.
  const base = prices.premiumUsdMicro(3) * BigInt(months);
  const scaled = prices.premiumUsdMicro(months) * 3n * 200n;
  const ratio = (scaled / base + 1n) / 2n;
  return 100 - Number(ratio);
}

export function premiumOptionsHtml(prices: PriceBook, months: readonly PremiumMonths[] = PREMIUM_MONTHS): string {
  const rate = prices.tonRateMicro();
  return months
    .map((m) => {
      const q = prices.quote(prices.premiumUsdMicro(m), rate);
      const label = m === 12 ? '1 year' : `${m} months`;
      const discount = m === 3 ? 0 : premiumDiscount(prices, m);
      const badge = discount > 0 ? `<span class="tm-radio-label-badge">-${discount}%</span>` : '';
      return `<label class="tm-form-radio-item"><input type="radio" class="tm-form-radio" name="months" value="${m}"${m === 3 ? ' checked' : ''}><div class="tm-form-radio-label"><div class="tm-radio-label">${label}${badge}</div>${tonValueHtml(q.tonText)}<div class="tm-radio-desc">$${formatUsd(q.usdMicro)}</div></div></label>`;
    })
    .join('');
}

/**
 * The `payment_method` radios of the Stars and Premium forms (pyfragment's weekly contract test
 * reads their values, docs/fragment-protocol.md §19.5); the top-up has none (GRAM only).
 */
function paymentMethodRadios(ctx: PageContext): string {
  const values = ctx.drift.has('paymentMethods') ? ['ton', 'usdt'] : ['ton', 'usdt_ton'];
  const labels: Record<string, string> = { ton: 'TON', usdt_ton: 'USDT', usdt: 'USDT' };
  return `<div class="tm-form-radio-items js-payment-methods">${values
    .map(
      (value, index) =>
        `<label class="tm-form-radio-item tm-payment-method"><input type="radio" class="tm-form-radio" name="payment_method" value="${value}"${index === 0 ? ' checked' : ''}><div class="tm-form-radio-label">${labels[value]}</div></label>`,
    )
    .join('')}</div>`;
}

/** "Enter amount from 50 to 1,000,000": the Stars limits as Fragment's placeholder words them. */
function starsPlaceholder(ctx: PageContext): string {
  const [min, max] = ctx.drift.has('starsLimits') ? [100, 25_000] : [ctx.starsMin, ctx.starsMax];
  return `Enter amount from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}`;
}

function productForm(kind: 'stars' | 'premium' | 'topup', ctx: PageContext): string {
  if (kind === 'topup') {
    return `<section class="tm-section tm-main-ads-topup"><h2 class="tm-section-header">Top Up Telegram Account</h2><form class="js-topup-form"><div class="tm-form-field"><input type="text" class="form-control js-search-field" name="query" placeholder="Enter Telegram username" autocomplete="off"></div><div class="tm-form-field"><input type="number" class="form-control js-amount-input" name="amount" min="1" placeholder="Enter amount in TON"></div><button type="submit" class="btn btn-primary btn-block js-topup-btn">Top Up</button></form></section>`;
  }
  if (kind === 'stars') {
    return `<section class="tm-section tm-main-stars-buy"><h2 class="tm-section-header">Buy Telegram Stars</h2><form class="js-stars-form"><div class="tm-form-field"><input type="text" class="form-control js-search-field" name="query" placeholder="Enter Telegram username" autocomplete="off"></div><div class="tm-form-field"><input type="number" class="form-control js-stars-quantity" name="quantity" min="${ctx.starsMin}" max="${ctx.starsMax}" placeholder="${starsPlaceholder(ctx)}"></div><div class="tm-form-radio-items js-stars-options">${starsOptionsHtml(ctx.prices, ctx.starsMax)}</div>${paymentMethodRadios(ctx)}<button type="submit" class="btn btn-primary btn-block js-stars-buy-btn">Buy Stars</button></form></section>`;
  }
  return `<section class="tm-section tm-main-premium-gift"><h2 class="tm-section-header">Gift Telegram Premium</h2><form class="js-premium-form"><div class="tm-form-field"><input type="text" class="form-control js-search-field" name="query" placeholder="Enter Telegram username" autocomplete="off"></div><div class="tm-form-radio-items js-premium-options">${premiumOptionsHtml(ctx.prices, ctx.drift.has('premiumMonths') ? [3, 6] : PREMIUM_MONTHS)}</div>${paymentMethodRadios(ctx)}<button type="submit" class="btn btn-primary btn-block js-premium-gift-btn">Gift Premium</button></form></section>`;
}

const LOGGED_OUT_MAIN = `<section class="tm-section tm-main-login"><div class="tm-login-text">Log in to continue</div><button class="btn btn-primary login-link js-login-btn">Log in</button><button class="btn btn-primary ton-auth-link js-ton-auth-btn">Connect TON</button></section>`;

const PAGE_NAMES: Record<PageKind, string> = {
  home: 'Main',
  stars: 'StarsBuy',
  premium: 'PremiumGift',
  topup: 'AdsTopup',
  starsHistory: 'StarsHistory',
  premiumHistory: 'PremiumHistory',
  topupHistory: 'AdsHistory',
  profile: 'Profile',
};

/**
 * "50 Telegram Stars", "Telegram Premium for 1 year", "25 TON": the order's title as Fragment words
 * it (the top-up's is not captured; its amount with its coin).
 */
export function orderTitle(order: Pick<Order, 'product' | 'quantity'>): string {
  if (order.product === 'gram') return `${order.quantity.toLocaleString('en-US')} TON`;
  return order.product === 'stars'
    ? `${order.quantity.toLocaleString('en-US')} Telegram Stars`
    : `Telegram Premium for ${order.quantity === 12 ? '1 year' : `${order.quantity} months`}`;
}

const REPEAT_BUTTONS: Record<Product, string> = {
  stars: 'Buy More Stars',
  premium: 'Gift More Premium',
  gram: 'Top Up More',
};

function historySection(title: string, tableHtml: string): string {
  return `<section class="tm-section tm-history"><h2 class="tm-section-header">${escapeHtml(title)}</h2>${tableHtml}</section>`;
}

export function renderPage(ctx: PageContext): RenderedPage {
  const loggedOut = ctx.loggedOut;
  let main: string;
  if (ctx.dead) main = LOGGED_OUT_MAIN;
  else if (ctx.kind === 'home')
    main = `<section class="tm-section tm-main-home"><a href="/stars/buy" class="tm-link">Buy Stars</a> <a href="/premium/gift" class="tm-link">Gift Premium</a></section>`;
  else if (ctx.kind === 'stars' || ctx.kind === 'premium' || ctx.kind === 'topup') main = productForm(ctx.kind, ctx);
  else if (ctx.kind === 'profile') main = ctx.profileHtml ?? '';
  else main = historySection(TITLES[ctx.kind], ctx.historyHtml ?? '');
  const state: Record<string, unknown> = { tonRate: '__TON_RATE__' };
  if (ctx.loginMarkup === 'fragment') state['unAuth'] = loggedOut;
  else if (loggedOut) state['unAuth'] = true;
  const product = PAGE_PRODUCTS[ctx.kind];
  if (product && !isHistoryPage(ctx.kind))
    Object.assign(state, { mode: 'new', lv: ctx.lv === 0 ? false : ctx.lv, dh: ctx.dh });
  if (product && isHistoryPage(ctx.kind)) {
    const type = HISTORY_TYPES[product];
    if (type !== '') state['type'] = type;
  }
  const pageName = PAGE_NAMES[ctx.kind];
  const script = `${pageName}.init(${injectRate(phpJson(state), ctx.rateText)});`;
  return { title: TITLES[ctx.kind], main, script, state };
}

function injectRate(json: string, rateText: string): string {
  return json.replace('"__TON_RATE__"', rateText);
}

export function pageStateJson(page: RenderedPage, rateText: string): string {
  return injectRate(phpJson(page.state), rateText);
}

/** Full HTML document with `ajInit({...})` and `Wallet.init({...})` (docs/fragment-protocol.md §3.1, §14.1). */
export function renderDocument(ctx: PageContext): string {
  const page = renderPage(ctx);
  const aj: Record<string, unknown> = { version: ctx.version };
  // The apiHash drift: the page carries its API URL somewhere no client looks (a renamed key).
  aj[ctx.drift.has('apiHash') ? 'apiEndpoint' : 'apiUrl'] = ctx.drift.has('apiHash')
    ? `/api/v2/${ctx.hash}`
    : `/api?hash=${ctx.hash}`;
  aj['state'] = '__STATE__';
  const ajJson = phpJson(aj).replace('"__STATE__"', pageStateJson(page, ctx.rateText));
  const wallet: Record<string, unknown> = {};
  if (ctx.wallet?.addressRaw) wallet['address'] = ctx.wallet.addressRaw;
  if (ctx.wallet) wallet['ton_proof'] = ctx.wallet.tonProof;
  wallet['logged_in'] =
    ctx.loginMarkup === 'fragment' ? !!ctx.wallet?.loggedIn && !ctx.dead : ctx.telegramLoggedIn && !ctx.loggedOut;
  wallet['version'] = 2;
  return `<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<title>${escapeHtml(page.title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1.0">
</head>
<body class="emoji_image">
<div class="tm-wrapper"><header class="tm-header"><a class="tm-logo" href="/">Fragment</a></header>
<main class="tm-main js-main-content">${page.main}</main></div>
<script src="/js/auction.js"></script>
<script>ajInit(${ajJson});</script>
<script>Wallet.init(${phpJson(wallet)});</script>
<script>${page.script}</script>
</body>
</html>`;
}

/** AJAX page mode (`X-Requested-With: XMLHttpRequest`): `{v, t, h, j, s}`. */
export function renderAjax(ctx: PageContext): string {
  const page = renderPage(ctx);
  const body = phpJson({ v: ctx.version, t: page.title, h: page.main, j: page.script, s: '__STATE__' });
  return body.replace('"__STATE__"', pageStateJson(page, ctx.rateText));
}

/** `html` of `update…State` for the flow's current order. */
export function flowHtml(product: Product, order: Order | undefined, formHtml: string): string {
  const what = orderTitle;
  if (!order || order.status === 'pending' || order.status === 'expired') return formHtml;
  const who = `<span class="tm-inline-nowrap">@${escapeHtml(order.username)}</span>`;
  switch (order.status) {
    case 'paid':
    case 'processing':
      return `<div class="tm-section tm-status-processing js-${product}-processing"><div class="tm-status-title">Processing…</div><div class="tm-status-text">${what(order)} for ${who} will be delivered soon.</div></div>`;
    case 'failed':
      return `<div class="tm-section tm-status-error js-${product}-error"><div class="tm-status-title">Payment failed</div><div class="tm-status-text">We couldn&#39;t process your payment for ${what(order)}. Please contact support with Ref#${order.ref}.</div></div>`;
    case 'done':
      return `<div class="tm-section tm-status-success js-${product}-done"><div class="tm-status-title">Success!</div><div class="tm-status-text">${what(order)} were sent to ${who}.</div><button class="btn btn-primary js-repeat-btn">${REPEAT_BUTTONS[product]}</button></div>`;
  }
}
