import type { Address } from '@ton/core';
import { formatUnits, GRAM_DECIMALS, USDT_DECIMALS } from '@starsgate/domain';
import type { Network } from '../network';
import type { SeedFormat } from '../keys/seed-format';
import type { AccountState, ChainClient } from '../chain/chain-client';
import { formatAddress } from './address';
import { resolveWalletOffline, type WalletSelection } from './resolve-offline';
import type { WalletVersion } from './wallet-contracts';

export interface ResolvedWallet {
  /** 0 for 24-word and Base64 seeds (single key). */
  account_index: number;
  wallet_version: WalletVersion;
  /** Non-bounceable, url-safe friendly form (testOnly on testnet). */
  wallet_address: string;
  raw_address: string;
  seed_format: SeedFormat;
  network: Network;
  balances?: { gram: string; usdt: string };
  balances_error?: string;
  /**
   * How wallet_version was chosen: 'selection' (12-word index/address, or the given
   * wallet_address), 'deployed' (the chain says it is active), 'default' (nothing deployed ⇒
   * V5R1), 'default_chain_unavailable' (the chain could not be asked ⇒ V5R1, unverified).
   */
  version_source: 'selection' | 'deployed' | 'default' | 'default_chain_unavailable';
  publicKey: Buffer;
}

export interface ResolveWalletDeps {
  network: Network;
  chain: ChainClient;
  /** Allow-listed USDT master (mainnet: EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs). */
  usdtMaster: Address;
}

/**
 * Full resolution: the offline table (resolveWalletOffline), then for 24-word/Base64 seeds without
 * wallet_address ask the chain which of V5R1/V4R2/V3R2 is active (several ⇒ most GRAM, ties ⇒
 * newest version; none ⇒ V5R1). Balances are exact decimal strings (GRAM 9 dp, USDT 6 dp); when the
 * chain cannot answer they are omitted and `balances_error` is 'CHAIN_UNAVAILABLE'. Input errors
 * are the same AppErrors as resolveWalletOffline; chain errors never fail the resolution.
 */
export async function resolveWallet(input: WalletSelection, deps: ResolveWalletDeps): Promise<ResolvedWallet> {
  const offline = await resolveWalletOffline(input, deps.network);
  let chosen = offline.candidates[0];
  if (!chosen) throw new Error('resolution produced no candidate');
  let source: ResolvedWallet['version_source'] = 'selection';
  const knownStates = new Map<string, AccountState>();

  if (offline.candidates.length > 1) {
    const results = await Promise.allSettled(offline.candidates.map((c) => deps.chain.getAccountState(c.address)));
    if (results.some((r) => r.status === 'rejected')) {
      source = 'default_chain_unavailable';
    } else {
      let best: { candidate: typeof chosen; balance: bigint } | null = null;
      results.forEach((result, i) => {
        const candidate = offline.candidates[i];
        if (result.status !== 'fulfilled' || !candidate) return;
        knownStates.set(candidate.version, result.value);
        if (result.value.status === 'active' && (best === null || result.value.balance > best.balance)) {
          best = { candidate, balance: result.value.balance };
        }
      });
      const winner = best as { candidate: typeof chosen; balance: bigint } | null;
      if (winner) {
        chosen = winner.candidate;
        source = 'deployed';
      } else {
        source = 'default';
      }
    }
  }

  const formatted = formatAddress(chosen.address, deps.network);
  const resolved: ResolvedWallet = {
    account_index: offline.accountIndex ?? 0,
    wallet_version: chosen.version,
    wallet_address: formatted.friendly,
    raw_address: formatted.raw,
    seed_format: offline.seedFormat,
    network: deps.network,
    version_source: source,
    publicKey: offline.publicKey,
  };

  try {
    const state = knownStates.get(chosen.version) ?? (await deps.chain.getAccountState(chosen.address));
    const jettonWallet = await deps.chain.getJettonWalletAddress(deps.usdtMaster, chosen.address);
    const usdt = await deps.chain.getJettonBalance(jettonWallet);
    resolved.balances = { gram: formatUnits(state.balance, GRAM_DECIMALS), usdt: formatUnits(usdt, USDT_DECIMALS) };
  } catch {
    resolved.balances_error = 'CHAIN_UNAVAILABLE';
  }
  return resolved;
}
