import { BlockList, isIP } from 'node:net';
import { commaList, string } from '@starsgate/platform';

/** Express's `trust proxy`: no proxy, the number of proxies in front, or the proxies' addresses. */
export type TrustProxy = false | number | string[];

/** proxy-addr's names for address ranges, accepted like a CIDR. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrCidr(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address, prefix, extra] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d{1,3}$/.test(prefix) && bits <= (family === 4 ? 32 : 128);
}

/** The first and last address of every IPv4 client: natively, and as dual-stack sockets show them. */
const EVERY_CLIENT: Array<[string, string, 'ipv4' | 'ipv6']> = [
  ['0.0.0.0', '255.255.255.255', 'ipv4'],
  ['::ffff:0:0', '::ffff:ffff:ffff', 'ipv6'],
  ['::', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'ipv6'],
];

/**
 * A range holding every address of a family (`0.0.0.0/0`, `::/0`, `::ffff:0:0/96`, through which
 * every IPv4 client arrives on a dual-stack socket): trusting it is `true` spelled as a CIDR, so it
 * is refused the same way (docs/security.md, attack 27). A range is contiguous: holding both ends
 * of a family is holding all of it.
 */
function coversEveryClient(entry: string): boolean {
  const [address, prefix] = entry.split('/');
  if (prefix === undefined || address === undefined) return false;
  const range = new BlockList();
  range.addSubnet(address, Number(prefix), isIP(address) === 4 ? 'ipv4' : 'ipv6');
  return EVERY_CLIENT.some(([first, last, family]) => range.check(first, family) && range.check(last, family));
}

/**
 * `TRUST_PROXY`: `false`/`0` (default: the client is the TCP peer), a hop count (`1` behind one
 * ingress), or a comma-separated list of the proxies' addresses or CIDRs. `true` is refused: it
 * trusts every hop, so any client picks its own IP with `X-Forwarded-For` and escapes every
 * per-client limit (docs/security.md, attack 2).
 */
export function trustProxyOf(value: string | undefined, problems: string[], name = 'TRUST_PROXY'): TrustProxy {
  const raw = value ?? '';
  const lower = raw.toLowerCase();
  if (['', 'false', 'no', 'off'].includes(lower)) return false;
  if (['true', 'yes', 'on'].includes(lower)) {
    problems.push(
      `${name}=${raw} would trust every hop, so a client sets its own IP with X-Forwarded-For: ` +
        'give the number of proxies in front of the gateway (1 behind one ingress) or their addresses/CIDRs',
    );
    return false;
  }
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > 10) problems.push(`${name} must be a hop count of 0-10 (got ${raw})`);
    return hops === 0 ? false : Math.min(hops, 10);
  }
  const entries = commaList(raw);
  const invalid = entries.filter((entry) => !isAddressOrCidr(entry));
  if (invalid.length > 0) {
    problems.push(
      `${name} must be false, a hop count, or addresses/CIDRs of the proxies (not ${invalid.map((entry) => `"${entry}"`).join(', ')})`,
    );
    return entries;
  }
  const everyone = entries.filter(coversEveryClient);
  if (everyone.length > 0)
    problems.push(
      `${name}=${everyone.join(',')} trusts every address, as true would, so a client sets its own IP with X-Forwarded-For: ` +
        'give the number of proxies in front of the gateway (1 behind one ingress) or their own addresses/CIDRs',
    );
  return entries;
}

export const TRUST_PROXY_VARIABLE = string({
  default: 'false',
  description:
    'Behind a reverse proxy, which X-Forwarded-For hops to believe for the client IP: the number of proxies in front (1 behind one ingress) or their addresses/CIDRs, comma separated. `true` is refused: it trusts every hop, so a client could name its own IP and escape the rate limits.',
});
