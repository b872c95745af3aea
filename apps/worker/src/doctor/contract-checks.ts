import { randomBytes } from 'node:crypto';
import { checkContract, FragmentClient, isFragmentError, proxyForLogin, withoutWalletToken } from '@starsgate/fragment';
import { loadWorkerConfig, type WorkerConfig } from '../config';
import { errorText, fail, ok, type CheckResult } from './check';

const DRIFT_ACTION =
  'fragment.com no longer shows what starsgate relies on: stop purchases (or expect them to fail before paying) and upgrade starsgate; docs/fragment-protocol.md §19.5.';

/**
 * `npm run doctor -- --contract`: reads fragment.com's product and history pages as pyfragment's
 * weekly contract test does and fails on drift (docs/fragment-protocol.md §19.5). Creates no order.
 * The product pages are read with the availability login (FRAGMENT_READ_COOKIES, else the first of
 * FRAGMENT_COOKIES), the history pages with the first paying login.
 */
export async function runContractCheck(env: Record<string, string | undefined>): Promise<CheckResult[]> {
  let config: WorkerConfig;
  try {
    config = loadWorkerConfig({ ...env, STARSGATE_SECRET_KEY: `doctor:${randomBytes(32).toString('base64')}` });
  } catch (error) {
    return [fail('configuration', errorText(error), 'Fix the variables named (see .env.example).')];
  }
  const client = (cookies: string, proxyUrl: string | undefined) =>
    new FragmentClient({
      baseUrl: config.fragmentBaseUrl,
      cookies,
      ...(proxyUrl ? { proxyUrl } : {}),
      timeoutMs: config.fragmentTimeoutMs,
      retry: { maxTries: 2 },
    });
  // Pages and history need no wallet: the rotating wallet token stays the workers' alone (§20.2).
  const payingLogin = config.fragmentCookies[0];
  const paying = payingLogin !== undefined ? withoutWalletToken(payingLogin) : undefined;
  const readCookies = withoutWalletToken(env.FRAGMENT_READ_COOKIES?.trim() || paying || '');
  const pages = client(readCookies, proxyForLogin(config.fragmentProxyUrls, 0));
  const history = paying !== undefined ? client(paying, proxyForLogin(config.fragmentProxyUrls, 0)) : undefined;
  try {
    const findings = await checkContract(pages, history);
    const results = findings.map((finding) =>
      finding.holds
        ? ok(`contract ${finding.item}`, finding.detail)
        : fail(`contract ${finding.item}`, finding.detail, DRIFT_ACTION),
    );
    if (history === undefined)
      results.push(
        fail(
          'contract history pages',
          'not read: FRAGMENT_COOKIES is empty (history needs a Telegram login)',
          'Set FRAGMENT_COOKIES.',
        ),
      );
    return results;
  } catch (error) {
    if (isFragmentError(error, 'CLOUDFLARE'))
      return [
        fail(
          'contract pages',
          `blocked by Cloudflare: use a proxy (${error.cloudflare ?? 'challenge'} page, HTTP ${error.httpStatus ?? '?'})`,
          'Route Fragment through a proxy (FRAGMENT_PROXY_URL), or run the check from another host.',
        ),
      ];
    return [
      fail(
        'contract pages',
        `not readable: ${errorText(error)}`,
        'Check FRAGMENT_BASE_URL and the logins (npm run doctor).',
      ),
    ];
  }
}
