/**
 * Read-only looks at the login outside the flow mutex: the status page's session state, any page
 * as served, and `/my/profile` (docs/fragment-protocol.md §19.3).
 */
import { assertPageUsable } from '../api-session';
import { pageLoggedIn, pageWalletLoggedIn, parseWalletInit } from '../html-parsing';
import { parseProfile, type AccountProfile } from '../profile-parsing';
import { fragmentPack, tonRateProduct } from '../products';
import type { ClientContext } from './context';

const PROFILE_PAGE = '/my/profile';

/** What `sessionStatus` finds on the status page. */
export interface SessionStatus {
  apiHash: boolean;
  loggedIn: boolean | undefined;
  walletLoggedIn: boolean | undefined;
  wallet: string | undefined;
}

/** The status page's API hash, Telegram login, TON wallet login and connected wallet. */
export async function sessionStatus(ctx: ClientContext): Promise<SessionStatus> {
  const path = fragmentPack(tonRateProduct()).page;
  const page = await ctx.api.getPage(path);
  const info = assertPageUsable(`GET ${path}`, page, false);
  return {
    apiHash: info.apiHash !== '',
    loggedIn: pageLoggedIn(page.body),
    walletLoggedIn: pageWalletLoggedIn(page.body),
    wallet: parseWalletInit(page.body)?.address,
  };
}

/** A page of the site as served (read-retried). */
export async function pageHtml(ctx: ClientContext, path: string): Promise<string> {
  return (await ctx.api.getPage(path)).body;
}

/** `/my/profile`, read only; a logged-out session is redirected (SESSION_INVALID). */
export async function profile(ctx: ClientContext): Promise<AccountProfile> {
  const page = await ctx.api.getPage(PROFILE_PAGE);
  return parseProfile(page.body);
}
