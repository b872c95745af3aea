import {
  checkContract,
  FragmentClient,
  proxyForLogin,
  splitCookieSets,
  splitProxyUrls,
  withoutWalletToken,
} from '@starsgate/fragment';
import { table } from '../output';
import type { CommandResult } from './command';

/** A `fragment contract` run missing its environment: a usage error. */
export class FragmentEnvironmentError extends Error {}

/**
 * `starsgate fragment contract`: the read-only contract check of `npm run doctor -- --contract`
 * (docs/fragment-protocol.md §19.5), run with the worker's Fragment variables (FRAGMENT_BASE_URL,
 * FRAGMENT_COOKIES, FRAGMENT_READ_COOKIES, FRAGMENT_PROXY_URL). Creates no order; exit 1 on drift.
 */
export async function fragmentContract(env: NodeJS.ProcessEnv): Promise<CommandResult> {
  const baseUrl = env.FRAGMENT_BASE_URL;
  if (!baseUrl) throw new FragmentEnvironmentError('FRAGMENT_BASE_URL is required: https://fragment.com');
  // Pages and history need no wallet: the rotating wallet token stays the workers' alone
  // (docs/fragment-protocol.md §20.2); sending it from here would push theirs out of date.
  const payingLogin = splitCookieSets(env.FRAGMENT_COOKIES ?? '')[0];
  const paying = payingLogin !== undefined ? withoutWalletToken(payingLogin) : undefined;
  const explicitRead = env.FRAGMENT_READ_COOKIES?.trim();
  const readCookies = explicitRead ? withoutWalletToken(explicitRead) : paying;
  if (readCookies === undefined)
    throw new FragmentEnvironmentError('FRAGMENT_COOKIES (or FRAGMENT_READ_COOKIES) is required: a Fragment login');
  const proxyUrl = proxyForLogin(splitProxyUrls(env.FRAGMENT_PROXY_URL), 0);
  const client = (cookies: string) =>
    new FragmentClient({ baseUrl, cookies, ...(proxyUrl ? { proxyUrl } : {}), retry: { maxTries: 2 } });
  const findings = await checkContract(client(readCookies), paying !== undefined ? client(paying) : undefined);
  const drift = findings.filter((finding) => !finding.holds).length;
  const rows = findings.map((finding) => ({ ...finding, holds: finding.holds ? 'ok' : 'DRIFT' }));
  return {
    json: { drift, findings },
    text: `${table(rows, ['item', 'holds', 'detail'])}\n\n${
      drift === 0
        ? 'fragment.com matches what starsgate relies on'
        : `${drift} item(s) drifted: see docs/fragment-protocol.md §19.5`
    }`,
    exitCode: drift === 0 ? 0 : 1,
  };
}
