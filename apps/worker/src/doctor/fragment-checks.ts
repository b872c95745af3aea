import {
  FragmentClient,
  isFragmentError,
  proxyForLogin,
  type AccountProfile,
  type FragmentProduct,
} from '@starsgate/fragment';
import { PRODUCTS } from '@starsgate/domain';
import type { WorkerConfig } from '../config';
import { errorText, fail, ok, warn, type CheckResult } from './check';
import { checkPrices } from './price-checks';

const PROXY_ACTION =
  'Cloudflare refuses this host, not the login: route Fragment through a proxy (FRAGMENT_PROXY_URL, a residential or otherwise unblocked address), or retry later; the cookies need no renewal.';

/** What a failed page load tells the operator: Cloudflare's stop is about this host, anything else about the cookies. */
function pageFailure(label: string, error: unknown): CheckResult {
  if (isFragmentError(error, 'CLOUDFLARE'))
    return fail(
      `${label} page`,
      `blocked by Cloudflare: use a proxy (${error.cloudflare ?? 'challenge'} page, HTTP ${error.httpStatus ?? '?'})`,
      PROXY_ACTION,
    );
  return fail(label, `page not usable: ${errorText(error)}`, COOKIES_ACTION);
}

const COOKIES_ACTION =
  'Log in to fragment.com in a browser (Telegram and the TON wallet), copy the stel_* cookies into FRAGMENT_COOKIES.';

/**
 * Each Fragment session, read-only: the page loads (or Cloudflare stops this host), the API hash is
 * found, the Telegram login is alive (`unAuth`), the TON wallet is connected (`logged_in`); the
 * profile's identity and wallet badges; its history pages readable; every product's price
 * (price-checks.ts). Nothing here creates an order.
 */
export async function checkFragmentSessions(config: WorkerConfig, readCookies?: string): Promise<CheckResult[]> {
  if (config.fragmentCookies.length === 0)
    return [fail('Fragment sessions', 'FRAGMENT_COOKIES is empty', COOKIES_ACTION)];
  const perSession = await Promise.all([
    ...config.fragmentCookies.map((cookies, index) =>
      checkSession(config, cookies, proxyForLogin(config.fragmentProxyUrls, index), `Fragment session ${index + 1}`),
    ),
    ...(readCookies?.trim() ? [checkReadLogin(config, readCookies)] : []),
  ]);
  return perSession.flat();
}

/**
 * FRAGMENT_READ_COOKIES, the gateway's login for availability and prices: it needs the page and the
 * prices, not a wallet (docs/fragment-protocol.md §19.2), and not even a Telegram login for search.
 */
async function checkReadLogin(config: WorkerConfig, cookies: string): Promise<CheckResult[]> {
  const proxyUrl = config.fragmentProxyUrls[0];
  const client = new FragmentClient({
    baseUrl: config.fragmentBaseUrl,
    cookies,
    ...(proxyUrl ? { proxyUrl } : {}),
    timeoutMs: config.fragmentTimeoutMs,
    retry: { maxTries: 2 },
  });
  const label = `Fragment read login (${client.sessionId()})`;
  let status: Awaited<ReturnType<FragmentClient['sessionStatus']>>;
  try {
    status = await client.sessionStatus();
  } catch (error) {
    return [pageFailure(label, error)];
  }
  return [
    ok(`${label} page`, 'loads, API hash found'),
    ok(
      `${label} login`,
      status.loggedIn === false ? 'not logged in to Telegram: enough for search and prices' : 'Telegram login alive',
    ),
    ok(
      `${label} wallet`,
      status.walletLoggedIn ? 'connected (not needed for reads)' : 'none connected: not needed for reads',
    ),
    ...(await checkPrices(client, label)),
  ];
}

async function checkSession(
  config: WorkerConfig,
  cookies: string,
  proxyUrl: string | undefined,
  name: string,
): Promise<CheckResult[]> {
  const client = new FragmentClient({
    baseUrl: config.fragmentBaseUrl,
    cookies,
    ...(proxyUrl ? { proxyUrl } : {}),
    timeoutMs: config.fragmentTimeoutMs,
    retry: { maxTries: 2 },
  });
  const label = `${name} (${client.sessionId()})`;
  let status: Awaited<ReturnType<FragmentClient['sessionStatus']>>;
  try {
    status = await client.sessionStatus();
  } catch (error) {
    return [pageFailure(label, error)];
  }
  const results: CheckResult[] = [ok(`${label} page`, 'loads, API hash found')];
  if (status.loggedIn === false) {
    results.push(fail(`${label} login`, 'the page is logged out (cookies dead or missing)', COOKIES_ACTION));
    return results;
  }
  results.push(
    status.loggedIn
      ? ok(`${label} login`, 'Telegram login alive (the page says unAuth: false)')
      : warn(`${label} login`, 'the page does not say', 'Check the session in a browser with these cookies.'),
  );
  results.push(walletResult(label, status));
  results.push(...(await checkProfile(client, label)));
  for (const product of PRODUCTS) results.push(await checkHistory(client, label, product));
  results.push(...(await checkPrices(client, label)));
  return results;
}

/**
 * The TON wallet's login (`Wallet.init` `logged_in`, docs/fragment-protocol.md §19.2), apart from
 * the Telegram one: a paying login needs it to ask for payment links.
 */
function walletResult(label: string, status: Awaited<ReturnType<FragmentClient['sessionStatus']>>): CheckResult {
  if (status.walletLoggedIn === false)
    return fail(
      `${label} wallet`,
      'no wallet connected (the page shows logged_in: false; stel_ton_token missing or expired)',
      'Connect the paying wallet on fragment.com with this login (TonConnect), then copy stel_ton_token with the other stel_* cookies.',
    );
  if (status.wallet)
    return ok(
      `${label} wallet`,
      `connected: ${status.wallet} (Fragment may name it as transaction.from; purchases still pay from their own wallet, docs/fragment-protocol.md §17)`,
    );
  return warn(
    `${label} wallet`,
    'the page names no connected TON wallet',
    'Connect the paying wallet on fragment.com with this login (purchases send their own TonConnect account; Fragment may refuse another).',
  );
}

const KYC_ACTION =
  'Open fragment.com/kyc/account with this login and verify the identity (Fragment asks for it before the first purchase, need_verify); docs/operations.md, Fragment login.';

/** `/my/profile`, read only (docs/fragment-protocol.md §19.3): identity verified, linked wallet, wallet verified. */
async function checkProfile(client: FragmentClient, label: string): Promise<CheckResult[]> {
  let profile: AccountProfile;
  try {
    profile = await client.profile();
  } catch (error) {
    return [
      warn(
        `${label} identity`,
        `profile page not readable: ${errorText(error)}`,
        'Open fragment.com/my/profile with this login and check "Identity Verified".',
      ),
    ];
  }
  if (!profile.recognised)
    return [
      warn(
        `${label} identity`,
        'the profile page names no identity or wallet (its markup may have changed)',
        'Open fragment.com/my/profile with this login and check "Identity Verified".',
      ),
    ];
  return [
    profile.identityVerified
      ? ok(`${label} identity`, 'verified ("Identity Verified")')
      : fail(`${label} identity`, 'not verified: Fragment refuses purchases until it is (need_verify)', KYC_ACTION),
    profile.linkedWallet !== undefined
      ? ok(`${label} linked wallet`, profile.linkedWallet)
      : fail(
          `${label} linked wallet`,
          'none: the profile shows no wallet linked to this account',
          'Connect the paying wallet on fragment.com with this login (TonConnect).',
        ),
    profile.walletVerified
      ? ok(`${label} wallet verified`, 'yes ("Wallet Verified")')
      : warn(
          `${label} wallet verified`,
          'the profile shows no "Wallet Verified" badge',
          'Finish the wallet verification on fragment.com/my/profile if Fragment offers it.',
        ),
  ];
}

async function checkHistory(client: FragmentClient, label: string, product: FragmentProduct): Promise<CheckResult> {
  const item = `${label} ${product} history`;
  try {
    const read = await client.deliveryHistory(product);
    if (read.shape === 'unrecognized')
      return fail(
        item,
        `reachable but not parseable: ${read.problem ?? 'unknown shape'}`,
        'Fragment changed its history markup: run with DELIVERY_PROOF=chain, or expect every purchase to need review, until starsgate reads it again.',
      );
    return ok(
      item,
      read.shape === 'empty' ? 'reachable, no purchases yet' : `reachable, ${read.rows.length} rows read`,
    );
  } catch (error) {
    return fail(item, `not reachable: ${errorText(error)}`, COOKIES_ACTION);
  }
}
