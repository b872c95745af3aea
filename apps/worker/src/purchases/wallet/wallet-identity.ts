import { Address, beginCell, storeStateInit } from '@ton/core';
import { AppError } from '@starsgate/domain';
import type { TonConnectAccount } from '@starsgate/fragment';
import type { PurchaseRow } from '@starsgate/db';
import {
  ChainUnavailableError,
  createWalletContract,
  chooseWalletVersion,
  deriveKeyPair,
  derivePublicKey,
  NETWORK_GLOBAL_ID,
  resolveCheckoutPayer,
  resolveWalletOffline,
  seedKeyId,
  walletAddress,
  WALLET_VERSIONS,
  type OfflineWalletResolution,
  type SeedFormat,
  type WalletContract,
  type WalletKeyPair,
  type WalletVersion,
} from '@starsgate/ton';
import { sharedCall } from '../shared-call';
import type { StepDeps } from '../step-deps';
import type { HeldPurchase } from '../persistence/held-purchase';

/** How long one chain answer to "which version of this wallet is deployed" serves other purchases. */
const VERSION_REUSE_MS = 30_000;

export interface PayerWallet {
  contract: WalletContract;
  version: WalletVersion;
  address: Address;
  publicKey: Buffer;
}

/** The stored secret is gone (terminal purchase, or tampering): nothing can be signed. */
export class SecretUnavailableError extends Error {
  constructor(purchaseId: string) {
    super(`wallet secret of purchase ${purchaseId} is not available`);
    this.name = 'SecretUnavailableError';
  }
}

/** Decrypts the held purchase's sealed seed (read with its claim) for `use`, and wipes it after. */
async function withSeed<T>(
  deps: StepDeps,
  purchase: HeldPurchase,
  use: (seed: string, format: SeedFormat, accountIndex: number) => T | Promise<T>,
): Promise<T> {
  const { row, sealedSecret } = purchase;
  if (!sealedSecret) throw new SecretUnavailableError(row.id);
  const bytes = deps.vault.open(row.id, sealedSecret);
  try {
    return await use(bytes.toString('utf8'), row.seedFormat as SeedFormat, row.accountIndex ?? 0);
  } finally {
    bytes.fill(0);
  }
}

/**
 * Derives the held purchase's key pair to sign with: the caller must `fill(0)` the returned
 * secret key after signing. Nothing keeps it: a batch derives it once for all its members.
 */
export function openKeyPair(deps: StepDeps, purchase: HeldPurchase): Promise<WalletKeyPair> {
  return withSeed(deps, purchase, deriveKeyPair);
}

/**
 * The public key of the held purchase's seed: stored at intake, so preparing never decrypts the
 * seed (only signing does). Rows accepted before it was stored derive it from the seed.
 */
function payerPublicKey(deps: StepDeps, purchase: HeldPurchase): Promise<Buffer> {
  const stored = purchase.row.payerPublicKey;
  if (stored) return Promise.resolve(Buffer.from(stored, 'hex'));
  return withSeed(deps, purchase, derivePublicKey);
}

/** The candidate wallets of a 24-word or Base64 seed from its stored public key (resolveWalletOffline's rule). */
function candidatesOfPublicKey(
  publicKey: Buffer,
  requestedWalletAddress: string | null,
  network: 'mainnet' | 'testnet',
): OfflineWalletResolution['candidates'] {
  const all = WALLET_VERSIONS.map((version) => ({ version, address: walletAddress(version, publicKey, network) }));
  if (!requestedWalletAddress) return all;
  const match = all.filter((candidate) => candidate.address.toRawString() === requestedWalletAddress);
  if (match.length === 0)
    throw new AppError('WALLET_ADDRESS_MISMATCH', {
      message: 'The requested wallet address does not belong to the stored public key.',
    });
  return match;
}

/** Which key the held purchase's seed selects (seedKeyId), without deriving it. */
export function openSeedKeyId(deps: StepDeps, purchase: HeldPurchase): Promise<string> {
  return withSeed(deps, purchase, seedKeyId);
}

function offlineSelection(row: HeldPurchase['row'], seed: string): Parameters<typeof resolveWalletOffline>[0] {
  return {
    seed,
    ...(row.requestedWalletAddress ? { wallet_address: row.requestedWalletAddress } : {}),
    ...(row.seedFormat === 'bip39_12' && row.accountIndex !== null ? { account_index: row.accountIndex } : {}),
  };
}

/**
 * The payer wallet per the spec's resolution rules: a 12-word seed's V5R1 account was fixed at
 * intake; a 24-word or Base64 seed uses the given wallet_address, else the version the chain
 * shows deployed (chooseWalletVersion). Only the public half leaves this function.
 */
export async function resolvePayerWallet(deps: StepDeps, purchase: HeldPurchase): Promise<PayerWallet> {
  const { network } = deps.config;
  const { row, sealedSecret: sealed } = purchase;
  if (row.walletAddress && row.walletVersion) {
    const publicKey = await payerPublicKey(deps, purchase);
    const contract = createWalletContract(row.walletVersion as WalletVersion, publicKey, network);
    if (contract.address.toRawString() !== row.walletAddress) {
      throw new AppError('WALLET_ADDRESS_MISMATCH', {
        message: 'The stored wallet address does not belong to the stored secret.',
      });
    }
    return {
      contract,
      version: row.walletVersion as WalletVersion,
      address: contract.address,
      publicKey,
    };
  }
  if (!sealed && !row.payerPublicKey) throw new SecretUnavailableError(row.id);
  let offline: Pick<OfflineWalletResolution, 'publicKey' | 'candidates'>;
  // A 12-word seed's account was fixed at intake (the branch above); here one key, three versions.
  if (row.payerPublicKey && row.seedFormat !== 'bip39_12') {
    const publicKey = Buffer.from(row.payerPublicKey, 'hex');
    offline = { publicKey, candidates: candidatesOfPublicKey(publicKey, row.requestedWalletAddress, network) };
  } else offline = await withSeed(deps, purchase, (seed) => resolveWalletOffline(offlineSelection(row, seed), network));
  // Many purchases of one wallet prepare at once: one chain read of its versions answers them all
  // (a failed read is not shared, so the next purchase asks again).
  const candidates = offline.candidates.map((c) => c.address.toRawString()).join(',');
  const choice = await sharedCall(
    deps.chain,
    `wallet-version:${candidates}`,
    { now: deps.now(), maxAgeMs: VERSION_REUSE_MS },
    async () => {
      const chosen = await chooseWalletVersion(offline.candidates, deps.chain);
      // Never guess a version we cannot check: a wrong guess would sign for an empty wallet.
      if (chosen.source === 'default_chain_unavailable')
        throw new ChainUnavailableError('wallet version could not be read from the chain', 'resolveWallet');
      return chosen;
    },
  );
  const contract = createWalletContract(choice.chosen.version, offline.publicKey, network);
  return { contract, version: choice.chosen.version, address: contract.address, publicKey: offline.publicKey };
}

/** Wallet contracts are built once per key (createWalletContract), so their accounts can be too. */
const accounts = new WeakMap<PayerWallet['contract'], Partial<Record<'mainnet' | 'testnet', TonConnectAccount>>>();

/** TON Connect `account` of the payer, as Fragment's get…Link and confirm take it. */
export function tonConnectAccount(wallet: PayerWallet, network: 'mainnet' | 'testnet'): TonConnectAccount {
  let byNetwork = accounts.get(wallet.contract);
  if (!byNetwork) accounts.set(wallet.contract, (byNetwork = {}));
  byNetwork[network] ??= Object.freeze({
    address: wallet.address.toRawString(),
    chain: String(NETWORK_GLOBAL_ID[network]) as '-239' | '-3',
    walletStateInit: beginCell().store(storeStateInit(wallet.contract.init)).endCell().toBoc().toString('base64'),
    publicKey: wallet.publicKey.toString('hex'),
  });
  return byNetwork[network];
}

/**
 * The buyer's wallet of a checkout, as the `preparing` step needs it (Fragment's order is made for its
 * TON Connect account): read from the chain, or from the key and state init the client sent for a
 * wallet not deployed yet.
 */
export async function resolveCheckoutWallet(deps: StepDeps, row: PurchaseRow): Promise<PayerWallet> {
  return resolveCheckoutPayer(
    Address.parseRaw(row.walletAddress!),
    { publicKey: row.payerPublicKey, stateInit: row.payerStateInit },
    { network: deps.config.network, chain: deps.chain },
  );
}
