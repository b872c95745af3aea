import type { Request, Response } from 'express';
import { parseCookies, setCookie } from './cookies';
import type { SimulatorContext } from './methods/context';
import { dataHash } from './methods/state';
import { historyStyle, historyTableHtml, tableProducts } from './history-html';
import { pagePath, type PageContext, type PageKind, productPage, renderAjax, renderDocument } from './pages';
import { profileHtml } from './profile-html';
import type { CallCounter } from './stats';

function isAjax(req: Request): boolean {
  return (req.get('x-requested-with') ?? '').toLowerCase() === 'xmlhttprequest';
}

/** `GET /`, every product page and history page (docs/fragment-protocol.md §3.1, §3.2, §14.1). */
export function createPageHandler(sim: SimulatorContext, counter: CallCounter, kind: PageKind) {
  return async (req: Request, res: Response): Promise<void> => {
    counter.count(`GET ${pagePath(kind)}`);
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
    const found = productPage(kind);
    const historyPage = !!found?.page.history;
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
      cfg,
      drift: new Set(cfg.faults.contractDrift),
      wallet: {
        addressRaw: auth.walletConnected ? auth.wallet?.toRawString() : undefined,
        tonProof: session.tonProof,
        loggedIn: auth.walletConnected,
      },
      loginMarkup: cfg.faults.loginMarkup,
      telegramLoggedIn: auth.loggedIn,
      // Only a product page shows its flow's `lv` and `dh`.
      lv: found ? session.flows[found.pack.product].lv : 0,
      dh: found ? dataHash(session, found.pack.product, rate) : '',
      ...(found && historyPage
        ? {
            historyHtml: historyTableHtml(
              found.pack.history.table,
              sim.orders.deliveredPage(cookies['stel_token'] ?? '', tableProducts(found.pack.history.table), {
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
