import type { Request, Response } from 'express';
import { parseCookies, setCookie } from './cookies';
import type { SimulatorContext } from './methods/context';
import { dataHash } from './methods/state';
import { historyStyle, historyTableHtml } from './history-html';
import {
  isHistoryPage,
  PAGE_PATHS,
  PAGE_PRODUCTS,
  type PageContext,
  type PageKind,
  renderAjax,
  renderDocument,
} from './pages';
import { profileHtml } from './profile-html';
import type { CallCounter } from './stats';

function isAjax(req: Request): boolean {
  return (req.get('x-requested-with') ?? '').toLowerCase() === 'xmlhttprequest';
}

/** `GET /`, `/stars/buy`, `/premium/gift` (docs/fragment-protocol.md §3.1, §3.2, §14.1). */
export function createPageHandler(sim: SimulatorContext, counter: CallCounter, kind: PageKind) {
  return async (req: Request, res: Response): Promise<void> => {
    counter.count(`GET ${PAGE_PATHS[kind]}`);
    if (await sim.faults.apply('page', undefined, req, res)) return;
    const cookies = parseCookies(req.headers.cookie);
    let ssid = cookies['stel_ssid'];
    if (!sim.sessions.isValidSsid(ssid)) {
      ssid = sim.sessions.newSsid();
      setCookie(res, 'stel_ssid', ssid);
    }
    if (cookies['stel_dt'] === undefined) setCookie(res, 'stel_dt', '0');
    const session = sim.sessions.ensure(ssid);
    sim.sessions.refreshHash(session);
    const auth = sim.sessions.auth(cookies);
    const cfg = sim.config();
    const tonToken = cookies['stel_ton_token'];
    if (cfg.faults.rotateCookies && !auth.dead && auth.walletConnected && auth.wallet && tonToken)
      setCookie(res, 'stel_ton_token', sim.sessions.rotateTonToken(tonToken, auth.wallet));
    const rate = sim.prices.tonRateMicro();
    const product = PAGE_PRODUCTS[kind] ?? 'stars';
    const historyPage = isHistoryPage(kind);
    // History and the profile need a Telegram login; Fragment answers a page it will not show
    // with 302 (docs/fragment-protocol.md §3.2).
    if ((historyPage || kind === 'profile') && !auth.loggedIn) {
      res.redirect(302, `${req.baseUrl}/`);
      return;
    }
    const ctx: PageContext = {
      kind,
      version: cfg.pageVersion,
      hash: session.hash,
      loggedOut: auth.dead || !auth.loggedIn,
      dead: auth.dead,
      rateText: sim.prices.tonRateText(),
      prices: sim.prices,
      starsMin: cfg.starsMin,
      starsMax: cfg.starsMax,
      drift: new Set(cfg.faults.contractDrift),
      wallet: {
        addressRaw: auth.walletConnected ? auth.wallet?.toRawString() : undefined,
        tonProof: session.tonProof,
        loggedIn: auth.walletConnected,
      },
      loginMarkup: cfg.faults.loginMarkup,
      telegramLoggedIn: auth.loggedIn,
      lv: session.flows[product].lv,
      dh: dataHash(session, product, rate),
      ...(historyPage
        ? {
            historyHtml: historyTableHtml(
              product,
              sim.orders.deliveredPage(cookies['stel_token'] ?? '', product, {
                limit: cfg.historyPageRows,
                ascending: req.query['sort'] === 'asc',
              }),
              historyStyle(cfg.faults, sim.clock()),
            ),
          }
        : {}),
      ...(kind === 'profile'
        ? {
            profileHtml: profileHtml({
              verified: cfg.faults.profileBadges === 'verified',
              linkedWallet: auth.walletConnected ? auth.wallet : undefined,
            }),
          }
        : {}),
    };
    res.set('Cache-Control', 'no-store');
    if (isAjax(req)) {
      res.status(200).type('application/json').send(renderAjax(ctx));
    } else {
      res.status(200).type('text/html; charset=utf-8').send(renderDocument(ctx));
    }
  };
}
