/**
 * The driver's own test wallets, one per kind of wallet input the service accepts (12-word BIP39 at
 * several accounts, selected by index, by address or both; 24-word TON and Base64 keys on V5R1, V4R2
 * and V3R2 contracts, deployed or not), funded through the sandbox faucet. Seeds are derived from
 * `--seed`, so a run is repeatable; they never leave the driver except in purchase requests.
 */
import { createHmac } from 'node:crypto';
import { entropyToMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english';
import { comment } from '@ton/core';
import { mnemonicValidate, mnemonicWordList } from '@ton/crypto';
import { WalletContractV3R2, WalletContractV4, WalletContractV5R1 } from '@ton/ton';
import {
  buildSignedExternal,
  createWalletContract,
  deriveKeyPair,
  type SeedFormat,
  type WalletVersion,
} from '@starsgate/ton';
import { sleep } from '@starsgate/stack';
import type { ChainAccess } from './chain-access';

export type Selection = 'none' | 'index' | 'address' | 'both';

export interface TestWallet {
  id: string;
  format: SeedFormat;
  /** Exactly as sent in `seed`. */
  seed: string;
  accountIndex: number;
  version: WalletVersion;
  /** What the purchase request names besides the seed. */
  selection: Selection;
  address: string;
  rawAddress: string;
  deployed: boolean;
}

interface Plan {
  id: string;
  format: SeedFormat;
  seedLabel: string;
  accountIndex: number;
  version: WalletVersion;
  selection: Selection;
  deploy: boolean;
}

const PLANS: Plan[] = [
  {
    id: 'bip39#0 index',
    format: 'bip39_12',
    seedLabel: 'bip39',
    accountIndex: 0,
    version: 'V5R1',
    selection: 'index',
    deploy: false,
  },
  {
    id: 'bip39#1 index',
    format: 'bip39_12',
    seedLabel: 'bip39',
    accountIndex: 1,
    version: 'V5R1',
    selection: 'index',
    deploy: true,
  },
  {
    id: 'bip39#2 address',
    format: 'bip39_12',
    seedLabel: 'bip39',
    accountIndex: 2,
    version: 'V5R1',
    selection: 'address',
    deploy: false,
  },
  {
    id: 'bip39#3 both',
    format: 'bip39_12',
    seedLabel: 'bip39',
    accountIndex: 3,
    version: 'V5R1',
    selection: 'both',
    deploy: true,
  },
  {
    id: 'ton24 V5R1 new',
    format: 'ton_24',
    seedLabel: 'ton24-a',
    accountIndex: 0,
    version: 'V5R1',
    selection: 'none',
    deploy: false,
  },
  {
    id: 'ton24 V4R2',
    format: 'ton_24',
    seedLabel: 'ton24-b',
    accountIndex: 0,
    version: 'V4R2',
    selection: 'none',
    deploy: true,
  },
  {
    id: 'ton24 V3R2 address',
    format: 'ton_24',
    seedLabel: 'ton24-c',
    accountIndex: 0,
    version: 'V3R2',
    selection: 'address',
    deploy: true,
  },
  {
    id: 'base64 V5R1',
    format: 'base64_key',
    seedLabel: 'b64-a',
    accountIndex: 0,
    version: 'V5R1',
    selection: 'none',
    deploy: true,
  },
  {
    id: 'base64 V4R2',
    format: 'base64_key',
    seedLabel: 'b64-b',
    accountIndex: 0,
    version: 'V4R2',
    selection: 'none',
    deploy: true,
  },
  {
    id: 'base64 V5R1 new',
    format: 'base64_key',
    seedLabel: 'b64-c',
    accountIndex: 0,
    version: 'V5R1',
    selection: 'none',
    deploy: false,
  },
];

const hmac = (key: string, label: string, algorithm = 'sha256'): Buffer =>
  createHmac(algorithm, key).update(label).digest();

/** A TON-native 24-word mnemonic derived from (runSeed, label): the first candidate mnemonicValidate accepts. */
async function tonMnemonic(runSeed: string, label: string): Promise<string> {
  for (let counter = 0; counter < 100_000; counter++) {
    let bits = BigInt(`0x${hmac(runSeed, `${label}:${counter}`, 'sha512').toString('hex')}`);
    const words: string[] = [];
    for (let i = 0; i < 24; i++) {
      words.push(mnemonicWordList[Number(bits & 2047n)]!);
      bits >>= 11n;
    }
    if (await mnemonicValidate(words)) return words.join(' ');
  }
  throw new Error('no TON mnemonic found');
}

async function seedFor(runSeed: string, plan: Plan): Promise<string> {
  if (plan.format === 'bip39_12') return entropyToMnemonic(hmac(runSeed, plan.seedLabel).subarray(0, 16), wordlist);
  if (plan.format === 'ton_24') return tonMnemonic(runSeed, plan.seedLabel);
  return hmac(runSeed, plan.seedLabel).toString('base64');
}

/** Deploys a wallet by its first external (a 1-nano transfer to itself) and waits until it is active. */
export async function deployWallet(
  chain: ChainAccess,
  contract: WalletContractV5R1 | WalletContractV4 | WalletContractV3R2,
  secretKey: Buffer,
): Promise<void> {
  const address = contract.address.toString({ bounceable: false });
  const { boc } = await buildSignedExternal({
    wallet: contract,
    secretKey,
    seqno: 0,
    validUntil: Math.floor(Date.now() / 1000) + 120,
    messages: [{ to: contract.address, value: 1n, bounce: false, body: comment('deploy') }],
  });
  // The sandbox drops some accepted externals (a fault of the run): broadcast the same bytes again
  // until the wallet is active, as a wallet app would.
  const deadline = Date.now() + 100_000;
  for (;;) {
    await chain.sendBoc(boc);
    const retryAt = Date.now() + 5_000;
    while (Date.now() < retryAt) {
      if ((await chain.walletState(address)).active) return;
      await sleep(300);
    }
    if (Date.now() > deadline) throw new Error(`wallet ${address} was not deployed`);
  }
}

export async function createTestWallets(
  runSeed: string,
  chain: ChainAccess,
  funding: { gram: string; usdt: string },
): Promise<TestWallet[]> {
  return Promise.all(
    PLANS.map(async (plan) => {
      const seed = await seedFor(runSeed, plan);
      const keys = await deriveKeyPair(seed, plan.format, plan.accountIndex);
      const contract = createWalletContract(plan.version, keys.publicKey, 'mainnet');
      const address = contract.address.toString({ bounceable: false, urlSafe: true });
      await chain.fund(address, funding.gram, funding.usdt);
      if (plan.deploy) await deployWallet(chain, contract, keys.secretKey);
      return {
        id: plan.id,
        format: plan.format,
        seed,
        accountIndex: plan.accountIndex,
        version: plan.version,
        selection: plan.selection,
        address,
        rawAddress: contract.address.toRawString(),
        deployed: plan.deploy,
      };
    }),
  );
}

/** The wallet fields of a purchase request for this wallet. */
export function walletFields(wallet: TestWallet): Record<string, unknown> {
  const fields: Record<string, unknown> = { seed: wallet.seed };
  if (wallet.selection === 'index' || wallet.selection === 'both') fields['account_index'] = wallet.accountIndex;
  if (wallet.selection === 'address' || wallet.selection === 'both') fields['wallet_address'] = wallet.address;
  return fields;
}
