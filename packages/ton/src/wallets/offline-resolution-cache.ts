import { cacheKey } from '../keys/key-cache';
import type { Network } from '../network';
import type { OfflineWalletResolution, WalletSelection } from './resolve-offline';

/**
 * Successful offline resolutions, so that a retried or repeated order does not re-validate the
 * mnemonic or re-scan 101 accounts. Holds public data only (format, index, public key, addresses),
 * under a keyed hash of the selection: the secret never becomes a map key. Bounded and
 * time-limited like the derived-key cache.
 */
const MAX_ENTRIES = 1024;
const TTL_MS = 10 * 60_000;
const entries = new Map<string, { value: OfflineWalletResolution; expiresAt: number }>();

export function offlineResolutionKey(input: WalletSelection, network: Network): string {
  const words = input.seed.trim().split(/\s+/);
  const secret = words.length > 1 ? words.join(' ').toLowerCase() : input.seed.trim();
  return cacheKey([
    'offline-resolution',
    network,
    secret,
    input.wallet_address ?? '',
    input.account_index === undefined ? '' : String(input.account_index),
  ]);
}

function copy(value: OfflineWalletResolution): OfflineWalletResolution {
  return { ...value, publicKey: Buffer.from(value.publicKey), candidates: [...value.candidates] };
}

export function getCachedResolution(key: string, now = Date.now()): OfflineWalletResolution | undefined {
  const entry = entries.get(key);
  if (!entry) return undefined;
  entries.delete(key);
  if (entry.expiresAt <= now) return undefined;
  entries.set(key, entry);
  return copy(entry.value);
}

export function putCachedResolution(key: string, value: OfflineWalletResolution, now = Date.now()): void {
  entries.delete(key);
  entries.set(key, { value: copy(value), expiresAt: now + TTL_MS });
  while (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
}

/**
 * Whether resolving this selection would be answered from the cache, i.e. cost no key derivation
 * (the gateway spends its derivation budget only on new seeds: docs/security.md, attack 6).
 */
export function isResolutionCached(input: WalletSelection, network: Network, now = Date.now()): boolean {
  const entry = entries.get(offlineResolutionKey(input, network));
  return entry !== undefined && entry.expiresAt > now;
}
