import { FragmentClient, isFragmentError, type FragmentProduct } from '@starsgate/fragment';
import { proxyForLogin } from '@starsgate/platform';
import { GRAM_DECIMALS, formatUnits, PRODUCTS } from '@starsgate/domain';
import type { WorkerConfig } from '../config';
import { errorText, fail, ok, warn, type CheckResult } from './check';

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
 * Each Fragment session, read-only: the page loads, the API hash is found, the login is alive (the
 * page's auth state), the connected wallet is known; KYC; its history pages readable; the Stars and
 * Premium price tables. Nothing here creates an order.
 */
export async function checkFragmentSessions(config: WorkerConfig): Promise<CheckResult[]> {
  if (config.fragmentCookies.length === 0)
    return [fail('Fragment sessions', 'FRAGMENT_COOKIES is empty', COOKIES_ACTION)];
  const perSession = await Promise.all(
    config.fragmentCookies.map((cookies, index) =>
      checkSession(config, cookies, proxyForLogin(config.fragmentProxyUrls, index), `Fragment session ${index + 1}`),
    ),
  );
  return perSession.flat();
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
      ? ok(`${label} login`, 'alive')
      : warn(`${label} login`, 'the page does not say', 'Check the session in a browser with these cookies.'),
  );
  results.push(
    status.wallet
      ? ok(
          `${label} wallet`,
          `connected: ${status.wallet} (Fragment may name it as transaction.from; purchases still pay from their own wallet, docs/fragment-protocol.md §17)`,
        )
      : warn(
          `${label} wallet`,
          'the page names no connected TON wallet',
          'Connect the paying wallet on fragment.com with this login (purchases send their own TonConnect account; Fragment may refuse another).',
        ),
  );
  results.push(
    warn(
      `${label} KYC`,
      'shows only when a payment link is asked (need_verify); the doctor creates no order',
      'Open fragment.com/kyc/account with this login; verify before the first purchase if asked.',
    ),
  );
  for (const product of PRODUCTS) results.push(await checkHistory(client, label, product));
  results.push(...(await checkPrices(client, label)));
  return results;
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

async function checkPrices(client: FragmentClient, label: string): Promise<CheckResult[]> {
  const action = 'Fragment changed its price markup or refuses this session; purchases will fail at the quote.';
  const results: CheckResult[] = [];
  try {
    const quote = await client.quoteStars(50);
    results.push(
      ok(`${label} Stars prices`, `50 Stars = ${formatUnits(quote.gramNano, GRAM_DECIMALS)} GRAM ($${quote.usd})`),
    );
  } catch (error) {
    results.push(fail(`${label} Stars prices`, errorText(error), action));
  }
  try {
    const prices = await client.premiumPrices();
    const shown = ([3, 6, 12] as const).map((m) => `${m} months $${prices[m].usd}`).join(', ');
    results.push(ok(`${label} Premium prices`, shown));
  } catch (error) {
    results.push(fail(`${label} Premium prices`, errorText(error), action));
  }
  return results;
}
