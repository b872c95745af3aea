import type { Address } from '@ton/core';
import { AppError } from '@starsgate/domain';
import type { Network } from '../network';
import { classifySeed, normalizeMnemonic, type SeedFormat } from '../keys/seed-format';
import {
  assertAccountIndex,
  bip39AccountKeyPair,
  bip39Seed,
  derivePublicKey,
  MAX_ACCOUNT_INDEX,
} from '../keys/derive-key-pair';
import { parseWalletAddress } from './address';
import { getCachedResolution, offlineResolutionKey, putCachedResolution } from './offline-resolution-cache';
import { v5r1Address, walletAddress, WALLET_VERSIONS, type WalletVersion } from './wallet-contracts';

export interface WalletSelection {
  seed: string;
  wallet_address?: string;
  account_index?: number;
}

export interface OfflineWalletResolution {
  seedFormat: SeedFormat;
  /** The BIP39 account index for 12-word seeds; null for 24-word and Base64 seeds. */
  accountIndex: number | null;
  publicKey: Buffer;
  /**
   * 12-word: exactly one (V5R1 at the index). 24-word / Base64: V5R1, V4R2, V3R2 in that order,
   * or only the one equal to `wallet_address` when it was given.
   */
  candidates: Array<{ version: WalletVersion; address: Address }>;
}

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Offline part of the spec's resolution table (no chain access; used at purchase intake).
 *
 * | seed | selection | result |
 * |---|---|---|
 * | 12 words | neither | WALLET_SELECTION_REQUIRED (field `seed`) |
 * | 12 words | account_index | V5R1 at `m/44'/607'/{index}'` |
 * | 12 words | wallet_address | scan V5R1 at indices 0..100, else WALLET_INDEX_NOT_FOUND |
 * | 12 words | both | the pair must match, else WALLET_ADDRESS_MISMATCH |
 * | 24 words / Base64 | any | V5R1, V4R2, V3R2 of the single key; a given wallet_address must be one of them, else WALLET_ADDRESS_MISMATCH |
 *
 * `account_index` is validated whenever present (0..100, INVALID_ACCOUNT_INDEX) but ignored for
 * 24-word and Base64 seeds: they hold one key, and no wallet app derives accounts from them by
 * index. `wallet_address` must be valid for `network` (INVALID_WALLET_ADDRESS). Cheap checks run
 * before any key derivation. The secret key is wiped before returning; only the public key leaves.
 */
export async function resolveWalletOffline(input: WalletSelection, network: Network): Promise<OfflineWalletResolution> {
  // Input checks stay ahead of the cache: a cached answer must never excuse a malformed request.
  if (input.account_index !== undefined && input.account_index !== null) assertAccountIndex(input.account_index);
  if (input.wallet_address !== undefined && input.wallet_address !== null)
    parseWalletAddress(input.wallet_address, network, 'wallet_address');
  const key = offlineResolutionKey(input, network);
  const cached = getCachedResolution(key);
  if (cached) return cached;
  const resolved = await resolveUncached(input, network);
  putCachedResolution(key, resolved);
  return resolved;
}

async function resolveUncached(input: WalletSelection, network: Network): Promise<OfflineWalletResolution> {
  const hasIndex = input.account_index !== undefined && input.account_index !== null;
  if (hasIndex) assertAccountIndex(input.account_index);
  const hasAddress = input.wallet_address !== undefined && input.wallet_address !== null;
  const wanted = hasAddress ? parseWalletAddress(input.wallet_address as string, network, 'wallet_address') : null;

  const seedFormat = await classifySeed(input.seed);

  if (seedFormat === 'bip39_12') {
    if (!hasIndex && !wanted) {
      throw AppError.field(
        'WALLET_SELECTION_REQUIRED',
        'seed',
        'A 12-word seed needs wallet_address or account_index to select the account.',
      );
    }
    if (hasIndex) {
      const accountIndex = input.account_index as number;
      const publicKey = await derivePublicKey(input.seed, 'bip39_12', accountIndex);
      const address = v5r1Address(publicKey, network);
      if (wanted && !wanted.equals(address)) {
        throw AppError.field(
          'WALLET_ADDRESS_MISMATCH',
          'wallet_address',
          `wallet_address is not the V5R1 wallet of account_index ${accountIndex} of this seed.`,
        );
      }
      return { seedFormat, accountIndex, publicKey, candidates: [{ version: 'V5R1', address }] };
    }
    // Address only: one BIP39 PBKDF2, then 101 cheap SLIP-0010 children, yielding now and then.
    const master = await bip39Seed(normalizeMnemonic(input.seed));
    try {
      for (let index = 0; index <= MAX_ACCOUNT_INDEX; index += 1) {
        if (index > 0 && index % 8 === 0) await yieldToEventLoop();
        const pair = bip39AccountKeyPair(master, index);
        pair.secretKey.fill(0);
        const address = v5r1Address(pair.publicKey, network);
        if (address.equals(wanted as Address)) {
          return {
            seedFormat,
            accountIndex: index,
            publicKey: pair.publicKey,
            candidates: [{ version: 'V5R1', address }],
          };
        }
      }
    } finally {
      master.fill(0);
    }
    throw AppError.field(
      'WALLET_INDEX_NOT_FOUND',
      'wallet_address',
      'No V5R1 account of this seed from index 0 to 100 has this address.',
    );
  }

  const publicKey = await derivePublicKey(input.seed, seedFormat);
  const all = WALLET_VERSIONS.map((version) => ({
    version,
    address: walletAddress(version, publicKey, network),
  }));
  if (wanted) {
    const match = all.find((candidate) => candidate.address.equals(wanted));
    if (!match) {
      throw AppError.field(
        'WALLET_ADDRESS_MISMATCH',
        'wallet_address',
        'wallet_address is not the V5R1, V4R2 or V3R2 wallet of this seed.',
      );
    }
    return { seedFormat, accountIndex: null, publicKey, candidates: [match] };
  }
  return { seedFormat, accountIndex: null, publicKey, candidates: all };
}
