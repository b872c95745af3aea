/** Read-only looks at a login (page reads outside the flow mutex), as operators' checks need them. */
import { assertPageUsable } from '../api-session';
import { pageLoggedIn, pageWalletLoggedIn, parseWalletInit } from '../html-parsing';
import { fragmentPack } from '../products';
import { parseProfile, type AccountProfile } from '../profile-parsing';
import type { CallContext } from './call-context';
import { statusPageProduct } from './status-page';

const PROFILE_PAGE = '/my/profile';

export interface SessionStatus {
  apiHash: boolean;
  loggedIn: boolean | undefined;
  walletLoggedIn: boolean | undefined;
  wallet: string | undefined;
}

/**
 * The status page loads, its API hash, the Telegram login (`unAuth`: logged-out pages carry a
 * hash too), the TON wallet's login (`Wallet.init` `logged_in`) and the connected wallet (raw
 * address) when it names one.
 */
export async function sessionStatus(context: CallContext): Promise<SessionStatus> {
  const path = fragmentPack(statusPageProduct()).page;
  const page = await context.api.getPage(path);
  const info = assertPageUsable(`GET ${path}`, page, false);
  return {
    apiHash: info.apiHash !== '',
    loggedIn: pageLoggedIn(page.body),
    walletLoggedIn: pageWalletLoggedIn(page.body),
    wallet: parseWalletInit(page.body)?.address,
  };
}

/**
 * `/my/profile` (docs/fragment-protocol.md §19.3): identity verified, the linked wallet and
 * whether it is verified; a logged-out session is redirected (SESSION_INVALID).
 */
export async function profile(context: CallContext): Promise<AccountProfile> {
  const page = await context.api.getPage(PROFILE_PAGE);
  return parseProfile(page.body);
}
