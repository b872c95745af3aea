import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which non-public addresses a webhook may reach (`WEBHOOK_ALLOW_PRIVATE`): `none` (the default:
 * only public unicast), `loopback` (also 127.0.0.0/8 and ::1, what `npm start` sets so a receiver on
 * the same machine works) or `all` (every address: receivers inside a private network).
 */
export type PrivateAddressAllowance = 'none' | 'loopback' | 'all';

/** WEBHOOK_ALLOW_PRIVATE's value (its schema admits none, loopback, all and the legacy false/true). */
export function privateAddressAllowance(value: string): PrivateAddressAllowance {
  if (value === 'loopback') return 'loopback';
  if (value === 'all' || value === 'true') return 'all';
  return 'none';
}

/**
 * Public unicast only: refuses private (RFC 1918), loopback, link-local (cloud metadata), CGNAT,
 * ULA, IPv4-mapped, NAT64/6to4/Teredo (which embed an IPv4 address), multicast, reserved and
 * unspecified addresses, unless the allowance admits them.
 */
export function webhookAddressAllowed(address: string, allowance: PrivateAddressAllowance): boolean {
  if (allowance === 'all') return true;
  if (!ipaddr.isValid(address)) return false;
  const range = ipaddr.parse(address).range();
  return range === 'unicast' || (allowance === 'loopback' && range === 'loopback');
}

/** Why a webhook target cannot be reached; a coarse class, safe to store and show. */
export class WebhookAddressError extends Error {
  constructor(readonly reason: 'dns_failed' | 'address_not_allowed') {
    super(
      reason === 'dns_failed'
        ? 'the webhook host does not resolve'
        : 'the webhook host resolves to a private, loopback, link-local or otherwise non-public address',
    );
  }
}

export interface ResolvedWebhookAddress {
  address: string;
  family: 4 | 6;
}

/**
 * Resolves a webhook URL's host and checks every address it has (one private record is enough to
 * refuse: a name could otherwise alternate). The caller connects to the returned address only
 * (`pinnedLookup`), so the name cannot be re-pointed between this check and the connection.
 */
export async function resolveWebhookAddress(
  hostname: string,
  allowance: PrivateAddressAllowance,
): Promise<ResolvedWebhookAddress> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const family = isIP(host);
  let addresses: ResolvedWebhookAddress[];
  if (family !== 0) addresses = [{ address: host, family: family as 4 | 6 }];
  else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })).map((entry) => ({
        address: entry.address,
        family: entry.family as 4 | 6,
      }));
    } catch {
      throw new WebhookAddressError('dns_failed');
    }
  }
  if (addresses.length === 0) throw new WebhookAddressError('dns_failed');
  if (addresses.some((entry) => !webhookAddressAllowed(entry.address, allowance)))
    throw new WebhookAddressError('address_not_allowed');
  return addresses[0]!;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for http(s).request that answers the already-checked address, whatever it is asked. */
export function pinnedLookup(pinned: ResolvedWebhookAddress) {
  return (_hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    if (options.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  };
}
