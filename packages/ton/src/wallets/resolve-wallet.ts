import type { Address } from '@ton/core';
import { formatUnits, GRAM_DECIMALS, USDT_DECIMALS } from '@starsgate/domain';
import type { Network } from '../network';
import type { SeedFormat } from '../keys/seed-format';
import type { AccountState, ChainClient } from '../chain/chain-client';
import { formatAddress } from './address';
import { resolveWalletOffline, type OfflineWalletResolution, type WalletSelection } from './resolve-offline';
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
  const { chosen, source, knownStates } = await chooseWalletVersion(offline.candidates, deps.chain);
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

export interface WalletVersionChoice {
  chosen: WalletCandidate;
  source: ResolvedWallet['version_source'];
  /** Account states read while choosing, by version. */
  knownStates: Map<WalletVersion, AccountState>;
}

type WalletCandidate = OfflineWalletResolution['candidates'][number];

/**
 * One candidate is the selection itself. Several (24-word/Base64 seed without wallet_address):
 * the active one on chain; several active ⇒ most GRAM, ties ⇒ the first listed (newest version);
 * none ⇒ the first (V5R1); the chain unreachable ⇒ the first, marked unverified.
 */
export async function chooseWalletVersion(
  candidates: readonly WalletCandidate[],
  chain: ChainClient,
): Promise<WalletVersionChoice> {
  const first = candidates[0];
  if (!first) throw new Error('resolution produced no candidate');
  const knownStates = new Map<WalletVersion, AccountState>();
  if (candidates.length === 1) return { chosen: first, source: 'selection', knownStates };
  const results = await Promise.allSettled(candidates.map((c) => chain.getAccountState(c.address)));
  if (results.some((r) => r.status === 'rejected'))
    return { chosen: first, source: 'default_chain_unavailable', knownStates };
  let best: { candidate: WalletCandidate; balance: bigint } | null = null;
  results.forEach((result, i) => {
    const candidate = candidates[i];
    if (result.status !== 'fulfilled' || !candidate) return;
    knownStates.set(candidate.version, result.value);
    if (result.value.status === 'active' && (best === null || result.value.balance > best.balance)) {
      best = { candidate, balance: result.value.balance };
    }
  });
  const winner = best as { candidate: WalletCandidate; balance: bigint } | null;
  return winner
    ? { chosen: winner.candidate, source: 'deployed', knownStates }
    : { chosen: first, source: 'default', knownStates };
}
