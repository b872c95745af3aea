/**
 * The wallets server-signed purchases pay from: the sandbox's demo wallets of every seed kind
 * (12-word BIP39 accounts 0 and 1, a 24-word TON mnemonic on V4R2, a Base64 key) and fresh
 * Base64-key V5R1 wallets, all topped up from the faucet so a long run never runs dry. Several
 * purchases share each wallet, so the worker batches them.
 */
import { randomBytes } from 'node:crypto';
import { createWalletContract, deriveKeyPair } from '@starsgate/ton';
import type { Faucet } from './faucet';
import type { DemoWallets } from './demo-info';

export interface PayerWallet {
  label: string;
  seed: string;
  /** A 12-word BIP39 seed names its account (account_index) in every request. */
  bip39: boolean;
  accountIndex: number;
  address: string;
}

const DEMO_IDS = ['bip39-0', 'bip39-1', 'ton24-v4r2', 'base64-v5r1'];
const TOP_UP = { gram: '100000', usdt: '1000000' };

export async function preparePayerWallets(
  demo: DemoWallets,
  faucet: Faucet,
  freshCount: number,
): Promise<PayerWallet[]> {
  const wallets: PayerWallet[] = demo.wallets
    .filter((wallet) => DEMO_IDS.includes(wallet.id))
    .map((wallet) => ({
      label: wallet.id,
      seed: wallet.seed,
      bip39: wallet.format === 'bip39_12',
      accountIndex: wallet.accountIndex,
      address: wallet.address,
    }));
  for (let i = 0; i < freshCount; i += 1) {
    const seed = randomBytes(32).toString('base64');
    const keys = await deriveKeyPair(seed, 'base64_key');
    keys.secretKey.fill(0);
    const address = createWalletContract('V5R1', keys.publicKey, 'mainnet').address.toString();
    wallets.push({ label: `base64-${i}`, seed, bip39: false, accountIndex: 0, address });
  }
  for (const wallet of wallets) await faucet.fund(wallet.address, TOP_UP);
  return wallets;
}
