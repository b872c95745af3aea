import type { ContractDrift, FragmentSimulatorConfig } from './config';
import { historyTypeOf } from './history-types';
import { escapeHtml, phpJson } from './html';
import type { Order } from './orders';
import type { PriceBook } from './pricing';
import type { ProductPage, SimProductPack } from './products/pack';
import { allPacks } from './products/registry';

/** A page the simulator serves: the home page, the profile, or one of a product's (products/*.ts). */
export type PageKind = 'home' | 'profile' | (string & {});

/** A product's page of this kind, if any. */
export function productPage(kind: PageKind): { pack: SimProductPack; page: ProductPage } | undefined {
  for (const pack of allPacks()) {
    const page = pack.pages.find((p) => p.kind === kind);
    if (page) return { pack, page };
  }
  return undefined;
}

const OWN_PAGES: Record<'home' | 'profile', { path: string; title: string; script: string }> = {
  home: { path: '/', title: 'Fragment', script: 'Main' },
  profile: { path: '/my/profile', title: 'My Profile', script: 'Profile' },
};

/** Every page the simulator serves: kind → path. */
export function pagePaths(): Array<{ kind: PageKind; path: string }> {
  return [
    { kind: 'home', path: OWN_PAGES.home.path },
    ...allPacks().flatMap((pack) => pack.pages.map((page) => ({ kind: page.kind, path: page.path }))),
    { kind: 'profile', path: OWN_PAGES.profile.path },
  ];
}

function pageInfo(kind: PageKind): { path: string; title: string; script: string } {
  if (kind === 'home' || kind === 'profile') return OWN_PAGES[kind as 'home' | 'profile'];
  const found = productPage(kind);
  if (!found) throw new Error(`unknown page ${kind}`);
  return found.page;
}

export function pagePath(kind: PageKind): string {
  return pageInfo(kind).path;
}

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
  /** The simulator's config, for a product's own settings (its limits). */
  cfg: FragmentSimulatorConfig;
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

const LOGGED_OUT_MAIN = `<section class="tm-section tm-main-login"><div class="tm-login-text">Log in to continue</div><button class="btn btn-primary login-link js-login-btn">Log in</button><button class="btn btn-primary ton-auth-link js-ton-auth-btn">Connect TON</button></section>`;

function historySection(title: string, tableHtml: string): string {
  return `<section class="tm-section tm-history"><h2 class="tm-section-header">${escapeHtml(title)}</h2>${tableHtml}</section>`;
}

export function renderPage(ctx: PageContext): RenderedPage {
  const loggedOut = ctx.loggedOut;
  const info = pageInfo(ctx.kind);
  const found = productPage(ctx.kind);
  let main: string;
  if (ctx.dead) main = LOGGED_OUT_MAIN;
  else if (ctx.kind === 'home') main = `<section class="tm-section tm-main-home">${homeLinks()}</section>`;
  else if (ctx.kind === 'profile') main = ctx.profileHtml ?? '';
  else if (found && !found.page.history) main = found.page.form?.(ctx) ?? '';
  else main = historySection(info.title, ctx.historyHtml ?? '');
  const state: Record<string, unknown> = { tonRate: '__TON_RATE__' };
  if (ctx.loginMarkup === 'fragment') state['unAuth'] = loggedOut;
  else if (loggedOut) state['unAuth'] = true;
  if (found && !found.page.history)
    Object.assign(state, { mode: 'new', lv: ctx.lv === 0 ? false : ctx.lv, dh: ctx.dh });
  if (found && found.page.history) {
    const type = historyTypeOf(found.pack.history.table);
    if (type !== '') state['type'] = type;
  }
  const script = `${info.script}.init(${injectRate(phpJson(state), ctx.rateText)});`;
  return { title: info.title, main, script, state };
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
export function flowHtml(pack: SimProductPack, order: Order | undefined, formHtml: string): string {
  if (!order || order.status === 'pending' || order.status === 'expired') return formHtml;
  const product = pack.product;
  const what = pack.orderTitle(order);
  const who = `<span class="tm-inline-nowrap">@${escapeHtml(order.username)}</span>`;
  switch (order.status) {
    case 'paid':
    case 'processing':
      return `<div class="tm-section tm-status-processing js-${product}-processing"><div class="tm-status-title">Processing…</div><div class="tm-status-text">${what} for ${who} will be delivered soon.</div></div>`;
    case 'failed':
      return `<div class="tm-section tm-status-error js-${product}-error"><div class="tm-status-title">Payment failed</div><div class="tm-status-text">We couldn&#39;t process your payment for ${what}. Please contact support with Ref#${order.ref}.</div></div>`;
    case 'done':
      return `<div class="tm-section tm-status-success js-${product}-done"><div class="tm-status-title">Success!</div><div class="tm-status-text">${what} were sent to ${who}.</div><button class="btn btn-primary js-repeat-btn">${pack.repeatButton}</button></div>`;
  }
}

/** The home page's links to the product pages that name one (`homeLink`). */
function homeLinks(): string {
  return allPacks()
    .flatMap((pack) => pack.pages)
    .flatMap((page) => (page.homeLink ? [`<a href="${page.path}" class="tm-link">${page.homeLink}</a>`] : []))
    .join(' ');
}
